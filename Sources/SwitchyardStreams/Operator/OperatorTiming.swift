/// The time settings every time-based operator (`debounce`, `throttle`, `delay`, `timeout`,
/// `collect(every:)`) is made with: its interval, measured on its clock, and the tolerance it
/// passes to `clock.sleep(until:tolerance:)`.
@usableFromInline struct OperatorTiming<C: Clock>: Sendable {
    @usableFromInline let interval: C.Duration
    @usableFromInline let tolerance: C.Duration?
    @usableFromInline let clock: C

    /// - Precondition: `interval` is not negative, and more than zero unless `allowsZero`;
    ///   `operatorName` (`"debounce(for:)"`) names the operator in the message otherwise.
    @inlinable init(_ operatorName: StaticString, interval: C.Duration, tolerance: C.Duration?, clock: C, allowsZero: Bool = true) {
        if allowsZero {
            precondition(interval >= .zero, "\(operatorName) needs an interval >= 0, got \(interval)")
        } else {
            precondition(interval > .zero, "\(operatorName) needs an interval > 0, got \(interval)")
        }
        self.interval = interval
        self.tolerance = tolerance
        self.clock = clock
    }
}
