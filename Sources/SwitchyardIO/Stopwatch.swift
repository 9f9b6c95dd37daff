/// Time elapsed on a clock since a fixed start, as a plain `Duration`.
///
/// Pure state machines take `Duration` time points; this turns any `Clock<Duration>` — the
/// bus clock, or a manual clock in tests — into them without exposing its instant type.
package struct Stopwatch: Sendable {
    private let read: @Sendable () -> Duration

    /// Starts measuring on `clock` now.
    package init(clock: some Clock<Duration>) {
        let start = clock.now
        read = { start.duration(to: clock.now) }
    }

    /// The time since the stopwatch was created.
    package var elapsed: Duration { read() }
}
