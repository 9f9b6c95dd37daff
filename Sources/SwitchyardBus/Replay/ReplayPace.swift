import FoundationEssentials

/// When each recorded action is due in a replay: at its recorded distance from the first one,
/// divided by the speed. Offsets count from the replay's start instant, never from the
/// previous action, so a late wake-up delays one action and no later one (no drift).
public struct ReplayPace: Sendable, Hashable {
    /// How many times faster than recorded; `nil` for as fast as possible.
    public let speed: Double?

    /// The recorded pace times `speed`.
    /// - Precondition: `speed` is finite and positive.
    public init(speed: Double) {
        precondition(speed.isFinite && speed > 0, "a replay speed is a positive number, got \(speed)")
        self.speed = speed
    }

    private init() {
        speed = nil
    }

    /// No waiting: every action as soon as the one before is reduced.
    public static let asFastAsPossible = ReplayPace()

    /// The speed a command line gives: a positive finite number (`50`, `0.5`, `x50` or `50x`).
    /// - Returns: `nil` for anything else.
    public static func parseSpeed(_ text: String) -> Double? {
        var digits = Substring(text)
        if digits.hasPrefix("x") || digits.hasPrefix("×") { digits = digits.dropFirst() } else if digits.hasSuffix("x") || digits.hasSuffix("×") { digits = digits.dropLast() }
        guard let value = Double(digits), value.isFinite, value > 0 else { return nil }
        return value
    }

    /// How long after the replay's start the action recorded at `time` is due, when the first
    /// replayed action was recorded at `origin`; `.zero` for an action recorded before it
    /// (recorded clocks can step back) and always `.zero` as fast as possible.
    public func offset(of time: Date, origin: Date) -> Duration {
        guard let speed else { return .zero }
        let seconds = max(0, time.timeIntervalSince(origin)) / speed
        return .nanoseconds(Int64((seconds * 1e9).rounded()))
    }
}
