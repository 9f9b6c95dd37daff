import Switchyard

/// Article 5 — KINTO's Input/Output view model: `transform(input) -> output`. Button taps are
/// shared between a text output ("tapped N times") and `didLoad.zip(buttonTap)` (the first tap
/// after the screen loaded); one `viewDidLoad`, many taps.
public enum InputOutputExample {
    public struct Input: Sendable {
        public let didLoad: Broadcast<Void>
        public let buttonTap: Broadcast<Void>

        public init(didLoad: Broadcast<Void>, buttonTap: Broadcast<Void>) {
            self.didLoad = didLoad
            self.buttonTap = buttonTap
        }
    }

    public struct Output<Text: AsyncSequence & Sendable, FirstTap: AsyncSequence & Sendable>: Sendable
    where Text.Element == String, FirstTap.Element == Int {
        /// The label's text after each tap.
        public let text: Text
        /// Emits the tap count of the first tap after each load.
        public let firstTapAfterLoad: FirstTap
    }

    /// Subscribes to the input's taps once and shares them between both outputs.
    public static func transform(_ input: Input) -> Output<some AsyncSequence<String, Never> & Sendable, some AsyncSequence<Int, Never> & Sendable> {
        let counts = input.buttonTap.subscribe().scan(0) { count, _ in count + 1 }.share()
        let text = counts.map { "tapped \($0) times" }
        let firstTap = input.didLoad.subscribe().zip(counts).map { _, count in count }
        return Output(text: text, firstTapAfterLoad: firstTap)
    }
}
