import SwitchyardStreams
import SwitchyardTestSupport
import SwitchyardTesting
import Testing

@Suite(.scaledTimeLimit(minutes: 1))
struct WithLatestFromTests {
    /// Elements before the other sequence has a value are dropped; later ones pair with the
    /// latest value, and the other sequence alone emits nothing.
    @Test func pairsWithTheLatestOtherValue() async {
        let (taps, forms, recorder) = recordTwo(Int.self, String.self, failure: TestFailure.self) { taps, forms in
            taps.withLatestFrom(forms).map { "\($0)\($1)" }
        }
        taps.send(0)
        await taps.waitForDemand()
        forms.send("a")
        await forms.waitForDemand()
        taps.send(1)
        #expect(await recorder.waitForElements(count: 1) == ["1a"])
        forms.send("b")
        forms.send("c")
        await forms.waitForDemand()
        taps.send(2)
        #expect(await recorder.waitForElements(count: 2) == ["1a", "2c"])
    }

    /// The other sequence finishing freezes its value; the base finishing ends the whole.
    @Test func endsWithTheBase() async {
        let (taps, forms, recorder) = recordTwo(Int.self, String.self, failure: TestFailure.self) { taps, forms in
            taps.withLatestFrom(forms).map { "\($0)\($1)" }
        }
        forms.send("a")
        forms.finish()
        await forms.waitForTermination()
        taps.send(1)
        #expect(await recorder.waitForElements(count: 1) == ["1a"])
        taps.finish()
        #expect(await recorder.waitForCompletion() == .finished)
    }

    /// A typed failure of the other sequence fails the whole and cancels the base.
    @Test func otherTypedFailureSurvives() async {
        let taps = TestSource<Int, TestFailure>()
        let forms = TestSource<String, TestFailure>()
        let paired: some AsyncSequence<(Int, String), TestFailure> & Sendable = taps.withLatestFrom(forms)
        let recorder = TestRecorder(paired.map { "\($0)\($1)" })
        forms.fail(.boom)
        #expect(await recorder.waitForCompletion() == .failed(.boom))
        await taps.waitForTermination()
    }

    /// Cancelling the consumer in the middle stops both tasks.
    @Test func cancellationInTheMiddleStopsBothTasks() async {
        let (taps, forms, recorder) = recordTwo(Int.self, String.self, failure: Never.self) { taps, forms in
            taps.withLatestFrom(forms).map { "\($0)\($1)" }
        }
        forms.send("a")
        await forms.waitForDemand()
        taps.send(1)
        await recorder.waitForElements(count: 1)
        await expectCancellingStopsBoth(recorder, taps, forms)
    }
}
