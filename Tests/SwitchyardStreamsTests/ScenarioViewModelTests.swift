import SwitchyardTestSupport
import Synchronization
import SwitchyardStreams
import SwitchyardTesting
import Testing

/// A view model written as an app would: view inputs in, view outputs out.
struct WelcomeViewModel: Sendable {
    enum Input: Sendable, Equatable {
        case didLoad
        case tap(String)
    }

    enum Output: Sendable, Hashable {
        case welcome(String)
        case echo(String)
        case firstTimeBoth
    }

    /// A remote service that counts its calls.
    final class WelcomeAPI: Sendable {
        private let calls = Mutex(0)

        var callCount: Int { calls.withLock { $0 } }

        func welcomeText() async -> String {
            let call = calls.withLock { count in
                count += 1
                return count
            }
            return "welcome #\(call)"
        }
    }

    let api: WelcomeAPI

    /// `didLoad` fetches the welcome text, each tap echoes its text, and the first time both a
    /// welcome and a tap have happened is reported once. The welcome feeds two outputs, so it
    /// is shared and the API is called once.
    func transform(_ inputs: some AsyncSequence<Input, Never> & Sendable) -> some AsyncSequence<Output, Never> & Sendable {
        let inputs = inputs.share()
        let welcome = inputs
            .filter { $0 == .didLoad }
            .flatMap(maxConcurrent: 1) { [api] _ in await api.welcomeText() }
            .share()
        let taps = inputs.compactMap { input -> String? in
            guard case .tap(let text) = input else { return nil }
            return text
        }
        let firstTimeBoth = welcome.zip(taps).prefix(1).map { _ in Output.firstTimeBoth }
        return merge(welcome.map(Output.welcome), taps.map(Output.echo), firstTimeBoth)
    }
}

@Suite(.scaledTimeLimit(minutes: 1))
struct ScenarioViewModelTests {
    typealias Input = WelcomeViewModel.Input
    typealias Output = WelcomeViewModel.Output

    /// Whatever the order of the inputs, the outputs are the welcome (one API call), an echo
    /// per tap in tap order, and "first time both" exactly once.
    @Test(arguments: [
        [Input.didLoad, .tap("hi"), .tap("again")],
        [.tap("hi"), .didLoad, .tap("again")],
        [.tap("hi"), .tap("again"), .didLoad],
    ])
    func transformsInputs(inputs: [Input]) async {
        let api = WelcomeViewModel.WelcomeAPI()
        let view = TestSource<Input, Never>()
        let recorder = TestRecorder(WelcomeViewModel(api: api).transform(view))
        for input in inputs { view.send(input) }
        view.finish()
        #expect(await recorder.waitForCompletion() == .finished)
        let outputs = recorder.elements
        #expect(Set(outputs) == [.welcome("welcome #1"), .echo("hi"), .echo("again"), .firstTimeBoth])
        #expect(outputs.count == 4)
        #expect(outputs.filter { if case .echo = $0 { true } else { false } } == [.echo("hi"), .echo("again")])
        #expect(api.callCount == 1)
        #expect(view.iteratorCount == 1)
    }

    /// Without a tap nothing is reported as "both", and leaving the screen (cancelling the
    /// consumer) stops everything, including the shared inputs.
    @Test func leavingTheScreenStopsEverything() async {
        let api = WelcomeViewModel.WelcomeAPI()
        let view = TestSource<Input, Never>()
        let recorder = TestRecorder(WelcomeViewModel(api: api).transform(view))
        view.send(.didLoad)
        #expect(await recorder.waitForElements(count: 1) == [.welcome("welcome #1")])
        recorder.cancel()
        #expect(await recorder.waitForCompletion() == .finished)
        await view.waitForTermination()
        #expect(recorder.elements == [.welcome("welcome #1")])
    }
}
