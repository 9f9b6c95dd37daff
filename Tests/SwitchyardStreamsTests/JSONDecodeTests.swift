import Foundation
import SwitchyardStreams
import SwitchyardTestSupport
import SwitchyardTesting
import Testing

@Suite(.scaledTimeLimit(minutes: 1))
struct JSONDecodeTests {
    struct Rate: Decodable, Equatable, Sendable {
        var currency: String
        var value: Double
    }

    /// Each JSON document, as bytes or as text, decodes into one value.
    @Test(arguments: [
        #"{"currency":"EUR","value":1.5}"#,
        #"  {"value": 1.5, "currency": "EUR", "extra": [1, 2]}  "#,
    ])
    func decodesDocuments(line: String) async throws {
        let bytes = TestSource<Data, TestFailure>()
        bytes.send(Data(line.utf8))
        bytes.finish()
        var fromBytes: [Rate] = []
        for try await rate in bytes.decode(type: Rate.self) { fromBytes.append(rate) }
        let text = TestSource<String, TestFailure>()
        text.send(line)
        text.finish()
        var fromText: [Rate] = []
        for try await rate in text.decode(type: Rate.self) { fromText.append(rate) }
        #expect(fromBytes == [Rate(currency: "EUR", value: 1.5)])
        #expect(fromText == fromBytes)
    }

    /// Bad input fails with an error that holds the undecodable bytes; nothing after it is read.
    @Test(arguments: [
        "not json",
        #"{"currency":"EUR"}"#,
        #"{"currency":"EUR","value":"high"}"#,
        "",
        #"[{"currency":"EUR","value":1}]"#,
    ])
    func badInputFailsWithTheInput(line: String) async throws {
        let source = TestSource<String, TestFailure>()
        source.send(#"{"currency":"USD","value":1}"#)
        source.send(line)
        source.send(#"{"currency":"GBP","value":2}"#)
        var iterator = source.decode(type: Rate.self).makeAsyncIterator()
        #expect(try await iterator.next() == Rate(currency: "USD", value: 1))
        do {
            _ = try await iterator.next()
            Issue.record("expected a failure for \(line)")
        } catch {
            guard case .undecodable(let input, let underlying) = error else {
                Issue.record("expected .undecodable, got \(error)")
                return
            }
            #expect(input == Data(line.utf8))
            #expect(underlying is DecodingError)
            #expect(error.description.hasPrefix("undecodable JSON \"\(line)\""))
        }
        #expect(try await iterator.next() == nil)
        #expect(source.bufferedCount == 1)
    }

    /// A long undecodable input is shortened in the description but kept whole in the error.
    @Test func longInputIsShortenedOnlyInTheDescription() async {
        let line = String(repeating: "x", count: 500)
        let source = TestSource<String, Never>()
        source.send(line)
        let recorder = TestRecorder(source.decode(type: Rate.self))
        guard case .failed(.undecodable(let input, _)) = await recorder.waitForCompletion() else {
            Issue.record("expected .undecodable")
            return
        }
        #expect(input.count == 500)
        let failure = JSONDecodeFailure<Never>.undecodable(input: input, underlying: TestFailure.boom)
        #expect(failure.description.contains("… (500 bytes)"))
    }

    /// The upstream's typed failure survives, wrapped as `.upstream`.
    @Test func upstreamFailureSurvivesTyped() async {
        let source = TestSource<Data, TestFailure>()
        source.fail(.boom)
        let decoded: some AsyncSequence<Rate, JSONDecodeFailure<TestFailure>> & Sendable = source.decode(type: Rate.self)
        let recorder = TestRecorder(decoded)
        guard case .failed(.upstream(let failure)) = await recorder.waitForCompletion() else {
            Issue.record("expected .upstream")
            return
        }
        #expect(failure == .boom)
        #expect(JSONDecodeFailure<TestFailure>.upstream(.boom).description == "upstream failed: boom")
    }

    /// Cancelling the consumer in the middle ends the iteration and releases the source.
    @Test func cancellationInTheMiddleStops() async {
        let source = TestSource<String, Never>()
        let recorder = TestRecorder(source.decode(type: Rate.self))
        source.send(#"{"currency":"EUR","value":1}"#)
        await recorder.waitForElements(count: 1)
        recorder.cancel()
        if case .failed = await recorder.waitForCompletion() { Issue.record("cancellation is not a failure") }
        await source.waitForTermination()
    }
}
