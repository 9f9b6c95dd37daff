import Foundation
import SwitchyardBus
import SwitchyardTestSupport
import Testing

@testable import NetworkFetchPlugin

/// Placeholders and secrets in requests sent to a real HTTP server on 127.0.0.1.
@Suite(.scaledTimeLimit(minutes: 1))
struct ServerTemplateTests {
    private func withHarness(
        _ configuration: NetworkFetchConfiguration, state: JSON = .emptyObject,
        _ body: (EngineHarness) async throws -> Void
    ) async throws {
        let transport = CurlTransport()
        defer { transport.shutDown() }
        let harness = EngineHarness(configuration, transport: transport, state: state)
        try await harness.running { try await body(harness) }
    }

    /// Values that need encoding are percent-encoded in the URL, inserted as text in headers
    /// and keep their JSON types in the body.
    @Test func placeholderValuesAreEncodedWhereTheyGo() async throws {
        let server = try await ScriptedServer.start(routes: ["/echo/S%C3%A3o%20Paulo%2FCentro%20%26%20co": [["echo": true]]])
        defer { server.stop() }
        let configuration = try NetworkFetchConfiguration.testing(
            url: server.url("/echo/{payload.city}?q={payload.query}&lat={payload.lat}&ok={payload.ok}&n={state.config.limit}"),
            headers: [("X-Lat", "{payload.lat}"), ("X-Limit", "limit {state.config.limit}")],
            body: [
                "city": "{payload.city}", "lat": "{payload.lat}", "label": "near {payload.city}", "tags": "{payload.tags}",
                "braces": "{{literal}}",
            ],
            method: "POST")
        let payload: JSON = [
            "city": "São Paulo/Centro & co", "query": "a+b=c?d#e%f", "lat": 52.52, "ok": true, "tags": ["a", "b"],
        ]
        try await withHarness(configuration, state: ["config": ["limit": 5]]) { harness in
            try await harness.trigger(payload: payload)
            let loaded = try await harness.waitFor("places/loaded")
            let echo = try #require(loaded.payload["value"])
            #expect(echo["method"] == "POST")
            #expect(echo["path"] == "/echo/S%C3%A3o%20Paulo%2FCentro%20%26%20co")
            #expect(echo["query"] == "q=a%2Bb%3Dc%3Fd%23e%25f&lat=52.52&ok=true&n=5")
            #expect(echo["headers"]?["x-lat"] == "52.52")
            #expect(echo["headers"]?["x-limit"] == "limit 5")
            #expect(echo["headers"]?["content-type"] == "application/json")
            #expect(echo["headers"]?["accept"] == "application/json")
            let body = try JSON(parsing: try #require(echo["body"]?.stringValue))
            #expect(
                body == [
                    "city": "São Paulo/Centro & co", "lat": 52.52, "label": "near São Paulo/Centro & co", "tags": ["a", "b"],
                    "braces": "{literal}",
                ])
        }
    }

    /// A placeholder without a value fails with kind `template` naming the path, and sends
    /// nothing.
    @Test func missingPlaceholderValueSendsNothing() async throws {
        let server = try await ScriptedServer.start(routes: ["/echo": [["echo": true]]])
        defer { server.stop() }
        let configuration = try NetworkFetchConfiguration.testing(url: server.url("/echo?lat={payload.latitude}"))
        try await withHarness(configuration) { harness in
            let trigger = try await harness.trigger(payload: ["longitude": 13.4])
            let failed = try await harness.waitFor("places/failed")
            #expect(failed.payload["kind"] == "template")
            #expect(failed.payload["path"] == "payload.latitude")
            #expect(failed.payload["attempts"] == 0)
            #expect(failed.payload["status"] == .null)
            #expect(failed.payload["message"] == "url: placeholder {payload.latitude} has no value; no request sent")
            #expect(failed.cause == trigger.id)
            #expect(harness.slice["status"] == "failed")
            #expect(harness.slice["error"]?["message"] == failed.payload["message"])
            #expect(harness.logs.contains { $0.contains("payload.latitude") })
        }
        #expect(try await server.requests().isEmpty)
    }

    /// Credential headers and key-like query values reach the server but never the actions or
    /// the log.
    @Test func secretsStayOutOfActionsAndLogs() async throws {
        let server = try await ScriptedServer.start(routes: ["/secret": [["status": 500]]])
        defer { server.stop() }
        let configuration = try NetworkFetchConfiguration.testing(
            url: server.url("/secret?api_key={state.keys.api}&q=berlin"),
            headers: [("Authorization", "Bearer {state.keys.token}"), ("X-API-Key", "literal-key-123")])
        let secrets = ["api-secret-987", "token-secret-654", "literal-key-123"]
        let state: JSON = ["keys": ["api": "api-secret-987", "token": "token-secret-654"]]
        try await withHarness(configuration, state: state) { harness in
            try await harness.trigger()
            let failed = try await harness.waitFor("places/failed")
            #expect(failed.payload["kind"] == "http")
            let loading = try #require(harness.actions("places/loading").first)
            #expect(loading.payload["url"] == .string(server.url("/secret?api_key=***&q=berlin")))
            let emitted = harness.actions.map { $0.json.serialized() }.joined() + harness.slice.serialized()
            let logged = harness.logs.joined(separator: "\n")
            for secret in secrets {
                #expect(!emitted.contains(secret))
                #expect(!logged.contains(secret))
            }
            #expect(logged.contains("api_key=***"))
        }
        let received = try #require(try await server.requests().first)
        #expect(received["query"] == "api_key=api-secret-987&q=berlin")
        #expect(received["headers"]?["authorization"] == "Bearer token-secret-654")
        #expect(received["headers"]?["x-api-key"] == "literal-key-123")
    }
}
