import Foundation
import SwitchyardBus
import SwitchyardTestSupport
import Testing

@testable import NetworkFetchPlugin

/// Responses from a real HTTP server on 127.0.0.1, one server per test.
@Suite(.scaledTimeLimit(minutes: 1))
struct ServerResponseTests {
    /// Runs `body` with a harness for `configuration` whose transport is the real one (libcurl).
    private func withHarness(
        _ configuration: NetworkFetchConfiguration, jitter: Double = 0.5,
        _ body: (EngineHarness) async throws -> Void
    ) async throws {
        let transport = CurlTransport(maxRedirects: configuration.maxRedirects)
        defer { transport.shutDown() }
        let harness = EngineHarness(configuration, transport: transport, jitter: jitter)
        try await harness.running { try await body(harness) }
    }

    /// A 200 JSON response becomes `loaded` with the value, status and timing, and the slice
    /// becomes `loaded`.
    @Test func okJSONIsLoaded() async throws {
        let server = try await ScriptedServer.start(routes: ["/places": [["json": ["name": "Café", "rating": 4.5]]]])
        defer { server.stop() }
        try await withHarness(try .testing(url: server.url("/places"))) { harness in
            let trigger = try await harness.trigger()
            let loaded = try await harness.waitFor("places/loaded")
            #expect(loaded.payload["value"] == ["name": "Café", "rating": 4.5])
            #expect(loaded.payload["status"] == 200)
            #expect(loaded.payload["attempts"] == 1)
            #expect(loaded.payload["elapsedMs"] == 0)
            #expect(loaded.cause == trigger.id)
            let loading = try #require(harness.actions("places/loading").first)
            #expect(loading.payload["requestId"] == loaded.payload["requestId"])
            #expect(loading.payload["cause"] == .integer(Int64(trigger.id)))
            #expect(loading.payload["method"] == "GET")
            #expect(loading.payload["url"] == .string(server.url("/places")))
            #expect(harness.slice["status"] == "loaded")
            #expect(harness.slice["value"] == ["name": "Café", "rating": 4.5])
            #expect(harness.slice["error"] == .null)
            #expect(harness.slice["requestId"] == loaded.payload["requestId"])
        }
    }

    /// `extract` narrows the loaded value to a sub-path of the response.
    @Test func extractNarrowsTheValue() async throws {
        let server = try await ScriptedServer.start(routes: ["/rates": [["json": ["base": "EUR", "rates": ["USD": 1.08]]]]])
        defer { server.stop() }
        try await withHarness(try .testing(url: server.url("/rates"), extract: "rates")) { harness in
            try await harness.trigger()
            let loaded = try await harness.waitFor("places/loaded")
            #expect(loaded.payload["value"] == ["USD": 1.08])
        }
    }

    /// A 404 fails with kind `http` at once: one request, no retry.
    @Test func notFoundIsNotRetried() async throws {
        let server = try await ScriptedServer.start(routes: ["/missing": [["status": 404, "json": ["error": "nope"]]]])
        defer { server.stop() }
        let configuration = try NetworkFetchConfiguration.testing(url: server.url("/missing"), retry: RetryPolicy(attempts: 3))
        try await withHarness(configuration) { harness in
            try await harness.trigger()
            let failed = try await harness.waitFor("places/failed")
            #expect(failed.payload["kind"] == "http")
            #expect(failed.payload["status"] == 404)
            #expect(failed.payload["attempts"] == 1)
            #expect(failed.payload["message"] == "HTTP 404 Not Found")
            let requests = try await server.requests()
            #expect(requests.count == 1)
            #expect(harness.clock.pendingDelays.isEmpty)
            #expect(harness.slice["status"] == "failed")
            #expect(harness.slice["error"]?["kind"] == "http")
            #expect(harness.slice["error"]?["status"] == 404)
        }
    }

    /// A 500 is retried after the backoff, slept on the plugin's clock, and the following 200
    /// is loaded.
    @Test func serverErrorThenSuccessIsRetried() async throws {
        let server = try await ScriptedServer.start(routes: ["/flaky": [["status": 500], ["json": ["ok": true]]]])
        defer { server.stop() }
        let retry = RetryPolicy(attempts: 3, baseDelay: .seconds(1), maxDelay: .seconds(30))
        try await withHarness(try .testing(url: server.url("/flaky"), retry: retry), jitter: 0.5) { harness in
            try await harness.trigger()
            let delay = try #require(await harness.clock.waitForSleeper { $0 < .seconds(30) })
            #expect(delay == .milliseconds(750))
            harness.clock.advance(by: delay)
            let loaded = try await harness.waitFor("places/loaded")
            #expect(loaded.payload["value"] == ["ok": true])
            #expect(loaded.payload["attempts"] == 2)
            #expect(loaded.payload["elapsedMs"] == 750)
            let requests = try await server.requests()
            #expect(requests.count == 2)
            #expect(harness.actions("places/loading").count == 1)
        }
    }

    /// A 429 with `Retry-After: 7` waits exactly 7 s (not the backoff) before retrying.
    @Test func tooManyRequestsHonoursRetryAfter() async throws {
        let server = try await ScriptedServer.start(routes: [
            "/limited": [["status": 429, "headers": ["Retry-After": "7"]], ["json": [1, 2, 3]]]
        ])
        defer { server.stop() }
        let retry = RetryPolicy(attempts: 2, baseDelay: .milliseconds(100), maxDelay: .seconds(20))
        try await withHarness(try .testing(url: server.url("/limited"), retry: retry)) { harness in
            try await harness.trigger()
            let delay = try #require(await harness.clock.waitForSleeper { $0 < .seconds(30) })
            #expect(delay == .seconds(7))
            harness.clock.advance(by: delay)
            let loaded = try await harness.waitFor("places/loaded")
            #expect(loaded.payload["value"] == [1, 2, 3])
            #expect(loaded.payload["attempts"] == 2)
        }
    }

    /// When every attempt gets a 503 the failure names the status and the attempts made.
    @Test func retriesRunOut() async throws {
        let server = try await ScriptedServer.start(routes: ["/down": [["status": 503]]])
        defer { server.stop() }
        let retry = RetryPolicy(attempts: 2, baseDelay: .seconds(2), maxDelay: .seconds(2))
        try await withHarness(try .testing(url: server.url("/down"), retry: retry)) { harness in
            try await harness.trigger()
            harness.clock.advance(by: try #require(await harness.clock.waitForSleeper { $0 < .seconds(30) }))
            let failed = try await harness.waitFor("places/failed")
            #expect(failed.payload["kind"] == "http")
            #expect(failed.payload["status"] == 503)
            #expect(failed.payload["attempts"] == 2)
            #expect(failed.payload["message"] == "HTTP 503 Service Unavailable (after 2 attempts)")
        }
    }

    /// A response slower than the timeout fails with kind `timeout` once the plugin's clock
    /// passes the timeout, and the abandoned connection is closed.
    @Test func slowResponseTimesOut() async throws {
        let server = try await ScriptedServer.start(routes: ["/slow": [["hold": true, "json": "late"]]])
        defer { server.stop() }
        try await withHarness(try .testing(url: server.url("/slow"), timeout: .seconds(5))) { harness in
            try await harness.trigger()
            try await server.awaitRequests("/slow", count: 1, state: "held")
            let delay = try #require(await harness.clock.waitForSleeper { $0 == .seconds(5) })
            harness.clock.advance(by: delay)
            let failed = try await harness.waitFor("places/failed")
            #expect(failed.payload["kind"] == "timeout")
            #expect(failed.payload["status"] == .null)
            #expect(failed.payload["message"] == "no complete response within 5 s")
            try await server.awaitRequests("/slow", count: 1, state: "aborted")
        }
    }

    /// A refused connection fails with kind `network`, after retrying.
    @Test func connectionRefusedIsANetworkFailure() async throws {
        let port = try unusedLocalPort()
        let retry = RetryPolicy(attempts: 2, baseDelay: .seconds(1), maxDelay: .seconds(1))
        try await withHarness(try .testing(url: "http://127.0.0.1:\(port)/x", retry: retry)) { harness in
            try await harness.trigger()
            harness.clock.advance(by: try #require(await harness.clock.waitForSleeper { $0 < .seconds(30) }))
            let failed = try await harness.waitFor("places/failed")
            #expect(failed.payload["kind"] == "network")
            #expect(failed.payload["attempts"] == 2)
            #expect(failed.payload["message"] == .string("could not connect to 127.0.0.1:\(port) (connection refused) (after 2 attempts)"))
        }
    }

    /// An https server whose certificate nothing trusts fails with kind `network` naming the
    /// TLS failure: https goes through libcurl's TLS, and its verification is on.
    @Test func untrustedCertificateIsATLSFailure() async throws {
        let server = try await TLSServer.start()
        defer { server.stop() }
        try await withHarness(try .testing(url: "https://127.0.0.1:\(server.port)/x")) { harness in
            try await harness.trigger()
            let failed = try await harness.waitFor("places/failed")
            #expect(failed.payload["kind"] == "network")
            let message = failed.payload["message"]?.stringValue ?? ""
            #expect(message.hasPrefix("the TLS connection to 127.0.0.1:\(server.port) failed (curl error 60: "), "\(message)")
        }
    }

    /// A 200 whose body is not JSON fails with kind `decode`, naming where parsing stopped.
    @Test func malformedJSONIsADecodeFailure() async throws {
        let server = try await ScriptedServer.start(routes: ["/broken": [["body": "{\"a\": 1,", "headers": ["Content-Type": "application/json"]]]])
        defer { server.stop() }
        try await withHarness(try .testing(url: server.url("/broken"), retry: RetryPolicy(attempts: 3))) { harness in
            try await harness.trigger()
            let failed = try await harness.waitFor("places/failed")
            #expect(failed.payload["kind"] == "decode")
            #expect(failed.payload["status"] == 200)
            #expect(failed.payload["attempts"] == 1)
            #expect(failed.payload["message"]?.stringValue?.hasPrefix("the response is not valid JSON (") == true)
            #expect(failed.payload["message"]?.stringValue?.contains("line 1") == true)
        }
    }

    /// A body over `maxResponseBytes` fails with kind `too-large` and the transfer is cut off:
    /// an announced length is refused before the body, and an endless body without a length
    /// is answered while the server is still sending, then its connection is dropped.
    @Test(arguments: [10_000_000_000, -1])
    func oversizedBodyIsCutOff(bodyBytes: Int) async throws {
        let server = try await ScriptedServer.start(routes: ["/huge": [["bodyBytes": .integer(Int64(bodyBytes))]]])
        defer { server.stop() }
        try await withHarness(try .testing(url: server.url("/huge"), maxResponseBytes: 64_000)) { harness in
            try await harness.trigger()
            let failed = try await harness.waitFor("places/failed")
            #expect(failed.payload["kind"] == "too-large")
            #expect(failed.payload["status"] == 200)
            #expect(failed.payload["message"] == "the response is larger than 64000 bytes (maxResponseBytes)")
            try await server.awaitRequests("/huge", count: 1, state: "aborted")
        }
    }

    /// A redirect is followed to the JSON it points at.
    @Test func redirectIsFollowed() async throws {
        let server = try await ScriptedServer.start(routes: [
            "/old": [["status": 302, "headers": ["Location": "/new"]]],
            "/new": [["json": ["moved": true]]],
        ])
        defer { server.stop() }
        try await withHarness(try .testing(url: server.url("/old"))) { harness in
            try await harness.trigger()
            let loaded = try await harness.waitFor("places/loaded")
            #expect(loaded.payload["value"] == ["moved": true])
            let requests = try await server.requests()
            #expect(requests.map { $0["path"] } == ["/old", "/new"])
        }
    }

    /// A redirect to another origin does not carry the Authorization header along.
    @Test func crossOriginRedirectDropsCredentials() async throws {
        let target = try await ScriptedServer.start(routes: ["/echo": [["echo": true]]])
        defer { target.stop() }
        let origin = try await ScriptedServer.start(routes: ["/start": [["status": 307, "headers": ["Location": .string(target.url("/echo"))]]]])
        defer { origin.stop() }
        let configuration = try NetworkFetchConfiguration.testing(
            url: origin.url("/start"), headers: [("Authorization", "Bearer s3cret-token"), ("X-Trace", "t1")])
        try await withHarness(configuration) { harness in
            try await harness.trigger()
            let loaded = try await harness.waitFor("places/loaded")
            #expect(loaded.payload["value"]?["headers"]?["authorization"] == nil)
            #expect(loaded.payload["value"]?["headers"]?["x-trace"] == "t1")
            let originRequests = try await origin.requests()
            #expect(originRequests.first?["headers"]?["authorization"] == "Bearer s3cret-token")
        }
    }

    /// A redirect loop stops after the redirect limit with kind `http`.
    @Test func redirectLoopIsRefused() async throws {
        let server = try await ScriptedServer.start(routes: ["/loop": [["status": 302, "headers": ["Location": "/loop"]]]])
        defer { server.stop() }
        try await withHarness(try .testing(url: server.url("/loop"))) { harness in
            try await harness.trigger()
            let failed = try await harness.waitFor("places/failed")
            #expect(failed.payload["kind"] == "http")
            #expect(failed.payload["status"] == 302)
            #expect(failed.payload["message"] == "redirect refused: more than 5 redirects")
            let requests = try await server.requests()
            #expect(requests.count == 6)
        }
    }
}
