import Foundation

/// Real-time bounds for tests, scaled for slow or busy machines.
///
/// Every bound a test waits under is a safety net against hanging, never a speed check: it
/// is generous on an idle machine and is multiplied by `SWITCHYARD_TEST_TIMEOUT_SCALE`
/// (default 1; any positive number, such as `3` on a loaded laptop or a slow CI runner).
/// An unusable value (empty, zero, negative, not a number) counts as 1, so a typo never makes
/// every wait end at once.
public enum TestTimeouts {
    /// The factor every test deadline is multiplied by.
    public static let scale: Double = factor(ProcessInfo.processInfo.environment["SWITCHYARD_TEST_TIMEOUT_SCALE"])

    /// `duration` multiplied by ``scale``.
    public static func scaled(_ duration: Duration) -> Duration {
        duration * scale
    }

    /// The factor `text` names; 1 when it is missing or not a positive finite number.
    public static func factor(_ text: String?) -> Double {
        guard let text, let value = Double(text.trimmingCharacters(in: .whitespaces)), value.isFinite, value > 0 else {
            return 1
        }
        return value
    }

    /// Whether the opt-in load tests run: `SWITCHYARD_LOAD_TESTS=1`. They measure nothing,
    /// but they keep two cores busy for a minute or more, so a plain `swift test` skips them.
    public static let loadTestsEnabled = ProcessInfo.processInfo.environment["SWITCHYARD_LOAD_TESTS"] == "1"
}

/// A point in real time after which a wait gives up, ``TestTimeouts/scale`` applied.
public struct TestDeadline: Sendable {
    /// The scaled bound, for messages ("no reply within 90 seconds").
    public let budget: Duration
    private let end: ContinuousClock.Instant

    /// A deadline `duration` (scaled) from now.
    public init(after duration: Duration) {
        budget = TestTimeouts.scaled(duration)
        end = ContinuousClock.now.advanced(by: budget)
    }

    /// Whether the deadline is behind us.
    public var hasPassed: Bool { ContinuousClock.now >= end }

    /// The time left, zero once the deadline has passed.
    public var remaining: Duration { max(.zero, ContinuousClock.now.duration(to: end)) }

    /// The time left in whole milliseconds for `poll(2)`, at least 1 and at most `cap`.
    public func remainingMilliseconds(cap: Int32 = 1000) -> Int32 {
        let (seconds, attoseconds) = remaining.components
        let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        return Int32(clamping: max(1, min(Int64(cap), milliseconds)))
    }
}
