import Foundation
import SwitchyardBus
import SwitchyardTestSupport
import Testing

@testable import NetworkFetchPlugin

/// Trigger policies against a real HTTP server on 127.0.0.1 whose requests the test holds and
/// releases one by one.
@Suite(.scaledTimeLimit(minutes: 1))
struct ServerPolicyTests {
    private func withHarness(
        _ configuration: NetworkFetchConfiguration, _ body: (EngineHarness) async throws -> Void
    ) async throws {
        let transport = CurlTransport(maxRedirects: configuration.maxRedirects)
        defer { transport.shutDown() }
        let harness = EngineHarness(configuration, transport: transport)
        try await harness.running { try await body(harness) }
    }

    /// With `latest`, a second trigger cancels the first request on the wire, and only the
    /// second result reaches the actions and the state.
    @Test func latestKeepsOnlyTheSecondResult() async throws {
        let server = try await ScriptedServer.start(routes: ["/search": [["hold": true, "echo": true]]])
        defer { server.stop() }
        try await withHarness(try .testing(url: server.url("/search?q={payload.q}"), policy: .latest)) { harness in
            try await harness.trigger(payload: ["q": "first"])
            try await server.awaitRequests("/search", count: 1, state: "held")
            try await harness.trigger(payload: ["q": "second"])
            try await server.awaitRequests("/search", count: 1, state: "aborted")
            try await server.awaitRequests("/search", count: 1, state: "held")
            try await server.release("/search")
            let loaded = try await harness.waitFor("places/loaded")
            #expect(loaded.payload["value"]?["query"] == "q=second")
            let loadings = harness.actions("places/loading")
            #expect(loadings.count == 2)
            #expect(loaded.payload["requestId"] == loadings.last?.payload["requestId"])
            #expect(harness.slice["value"]?["query"] == "q=second")
            #expect(harness.slice["requestId"] == loadings.last?.payload["requestId"])
            let requests = try await server.requests()
            #expect(requests.map { $0["query"] } == ["q=first", "q=second"])
            #expect(requests.first?["state"] == "aborted")
        }
        #expect(try await server.requests().count == 2)
    }

    /// With `every` and `maxConcurrent: 2`, four triggers all get requests, never more than two
    /// at once.
    @Test func everyRespectsMaxConcurrent() async throws {
        let server = try await ScriptedServer.start(routes: ["/slot": [["hold": true, "echo": true]]])
        defer { server.stop() }
        try await withHarness(try .testing(url: server.url("/slot?n={payload.n}"), policy: .every(maxConcurrent: 2))) { harness in
            for number in 1...4 { try await harness.trigger(payload: ["n": .integer(Int64(number))]) }
            try await server.awaitRequests("/slot", count: 2, state: "held")
            #expect(harness.actions("places/loading").count == 2)
            for released in 1...4 {
                try await server.awaitRequests("/slot", count: min(2, 5 - released), state: "held")
                try await server.release("/slot")
                try await harness.waitFor("places/loaded", count: released)
            }
            #expect(try await server.maxInFlight() == 2)
            let queries = harness.actions("places/loaded").compactMap { $0.payload["value"]?["query"]?.stringValue }
            #expect(Set(queries) == ["n=1", "n=2", "n=3", "n=4"])
        }
    }

    /// With `leading`, a trigger that arrives while a request is in flight is ignored; the next
    /// trigger after it finished is served.
    @Test func leadingIgnoresTriggersWhileBusy() async throws {
        let server = try await ScriptedServer.start(routes: ["/lead": [["hold": true, "echo": true]]])
        defer { server.stop() }
        try await withHarness(try .testing(url: server.url("/lead?n={payload.n}"), policy: .leading)) { harness in
            try await harness.trigger(payload: ["n": 1])
            try await server.awaitRequests("/lead", count: 1, state: "held")
            try await harness.trigger(payload: ["n": 2])
            try await harness.waitForLog(containing: "runner: dropped")
            try await server.release("/lead")
            try await harness.waitForLog(containing: "runner: finished")
            try await harness.trigger(payload: ["n": 3])
            try await server.awaitRequests("/lead", count: 1, state: "held")
            try await server.release("/lead")
            try await harness.waitFor("places/loaded", count: 2)
            let requests = try await server.requests()
            #expect(requests.map { $0["query"] } == ["n=1", "n=3"])
            #expect(harness.actions("places/loading").count == 2)
        }
    }
}
