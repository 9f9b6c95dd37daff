import Foundation
import SwitchyardBus
import SwitchyardTestSupport
import Testing

@testable import NetworkFetchPlugin

/// The libcurl transport's own life: its thread, shutting down with requests on the wire.
@Suite(.scaledTimeLimit(minutes: 1))
struct CurlTransportTests {
    private func get(_ url: String) throws -> PreparedRequest {
        PreparedRequest(method: "GET", url: try #require(URL(string: url)), headers: [], body: nil)
    }

    /// Shutting down answers a request on the wire with `cancelled` and drops its connection;
    /// a request after that is cancelled at once.
    @Test func shutDownCancelsWhatIsInFlight() async throws {
        let server = try await ScriptedServer.start(routes: ["/held": [["hold": true, "json": "late"]]])
        defer { server.stop() }
        let transport = CurlTransport()
        let request = try get(server.url("/held"))
        let sent = Task { await transport.send(request, maxResponseBytes: 1 << 20, timeout: .seconds(60)) }
        try await server.awaitRequests("/held", count: 1, state: "held")
        transport.shutDown()
        #expect(await sent.value == .cancelled)
        try await server.awaitRequests("/held", count: 1, state: "aborted")
        #expect(await transport.send(request, maxResponseBytes: 1 << 20, timeout: .seconds(60)) == .cancelled)
    }

    /// The thread ends once it has had no request for its idle time, and the next request
    /// starts it again.
    @Test func threadEndsWhenIdleAndComesBack() async throws {
        let server = try await ScriptedServer.start(routes: ["/ok": [["json": ["n": 1]]]])
        defer { server.stop() }
        let transport = CurlTransport(idleExit: .milliseconds(100))
        defer { transport.shutDown() }
        let request = try get(server.url("/ok"))
        for round in 1...2 {
            let result = await transport.send(request, maxResponseBytes: 1 << 20, timeout: .seconds(60))
            guard case .response(let response) = result else {
                Issue.record("round \(round): \(result)")
                return
            }
            #expect(response.status == 200)
            await waitUntil("the thread ended (round \(round))", interval: .milliseconds(20)) { !transport.isThreadRunning }
        }
        #expect(try await server.requests().count == 2)
    }
}
