import Foundation
import SwitchyardBus
import SwitchyardTestSupport
import SwitchyardTesting
import Testing

@testable import NetworkFetchPlugin

/// The attempt loop: timeouts and backoff on the injected clock, retries, decoding.
@Suite(.scaledTimeLimit(minutes: 1))
struct FetcherTests {
    private let request = PreparedRequest(method: "GET", url: URL(string: "http://h/x")!, headers: [], body: nil)

    private func fetcher(
        _ transport: ScriptedTransport, clock: ManualClock, retry: RetryPolicy = RetryPolicy(attempts: 3),
        extract: String? = nil
    ) -> Fetcher {
        Fetcher(
            transport: transport, retry: retry, timeout: .seconds(10), maxResponseBytes: 1000, extract: extract,
            clock: clock, jitter: { 0 }, now: { Date(timeIntervalSince1970: 0) }, onRetry: { _ in })
    }

    private static func ok(_ body: String, status: Int = 200) -> ScriptedTransport.Step {
        .answer(.response(HTTPResponse(status: status, body: Array(body.utf8))))
    }

    /// A hanging attempt times out when the clock passes the timeout, and the next attempt is
    /// made after the backoff.
    @Test func timeoutThenRetry() async throws {
        let clock = ManualClock()
        let transport = ScriptedTransport([.hang, Self.ok("[1]")])
        let task = Task { await fetcher(transport, clock: clock).fetch(request) }
        #expect(await clock.waitForSleeper { $0 == .seconds(10) } == .seconds(10))
        clock.advance(by: .seconds(10))
        #expect(await clock.waitForSleeper { $0 < .seconds(10) } == .milliseconds(250))
        clock.advance(by: .milliseconds(250))
        #expect(await task.value == .loaded(value: [1], status: 200, attempts: 2))
        #expect(transport.sendCount == 2)
    }

    /// The last failure is reported with the number of attempts once they run out.
    @Test func reportsTheLastFailure() async throws {
        let clock = ManualClock()
        let transport = ScriptedTransport([.answer(.network("reset")), .answer(.network("refused"))])
        let task = Task { await fetcher(transport, clock: clock, retry: RetryPolicy(attempts: 2)).fetch(request) }
        clock.advance(by: try #require(await clock.waitForSleeper { $0 < .seconds(10) }))
        #expect(await task.value == .failed(FetchFailure(kind: .network, message: "refused (after 2 attempts)", attempts: 2)))
    }

    /// A cancelled fetch reports nothing, whether it is sending or backing off.
    @Test(arguments: [false, true])
    func cancellationReportsNothing(whileBackingOff: Bool) async {
        let clock = ManualClock()
        let transport = ScriptedTransport(whileBackingOff ? [.answer(.timedOut)] : [])
        let task = Task { await fetcher(transport, clock: clock).fetch(request) }
        await clock.waitForSleeper { whileBackingOff ? $0 < .seconds(10) : $0 == .seconds(10) }
        task.cancel()
        #expect(await task.value == nil)
    }

    /// Results that are final at once: too large, refused redirect, 4xx, decode problems.
    @Test(arguments: [
        (ScriptedTransport.Step.answer(.tooLarge(status: 200)), FetchFailure(kind: .tooLarge, status: 200, message: "the response is larger than 1000 bytes (maxResponseBytes)", attempts: 1)),
        (.answer(.redirectRefused(status: 301, reason: "more than 5 redirects")), FetchFailure(kind: .http, status: 301, message: "redirect refused: more than 5 redirects", attempts: 1)),
        (ok("{}", status: 403), FetchFailure(kind: .http, status: 403, message: "HTTP 403 Forbidden", attempts: 1)),
        (ok("{\"a\":1}", status: 200), FetchFailure(kind: .decode, status: 200, message: "the response has no value at \"data.items\" (extract)", attempts: 1)),
    ])
    func finalFailures(step: ScriptedTransport.Step, failure: FetchFailure) async {
        let transport = ScriptedTransport([step])
        let outcome = await fetcher(transport, clock: ManualClock(), extract: "data.items").fetch(request)
        #expect(outcome == .failed(failure))
        #expect(transport.sendCount == 1)
    }

    /// A body that is not JSON is a decode failure citing the parser's position.
    @Test func invalidJSONIsADecodeFailure() async throws {
        let outcome = await fetcher(ScriptedTransport([Self.ok("{\"a\": <html>")]), clock: ManualClock()).fetch(request)
        guard case .failed(let failure) = outcome else {
            Issue.record("expected a failure, got \(String(describing: outcome))")
            return
        }
        #expect(failure.kind == .decode)
        #expect(failure.status == 200)
        #expect(failure.message.hasPrefix("the response is not valid JSON (line 1, column 7"))
    }

    /// An empty 2xx body (204) loads as `null`; `extract` reads array indexes too.
    @Test func decodesEmptyAndExtractedBodies() async {
        let empty = await fetcher(ScriptedTransport([Self.ok("", status: 204)]), clock: ManualClock()).fetch(request)
        #expect(empty == .loaded(value: nil, status: 204, attempts: 1))
        let extracted = await fetcher(ScriptedTransport([Self.ok(#"{"data":{"items":["a","b"]}}"#)]), clock: ManualClock(), extract: "data.items.1")
            .fetch(request)
        #expect(extracted == .loaded(value: "b", status: 200, attempts: 1))
    }
}
