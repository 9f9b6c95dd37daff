/// Time elapsed on a clock since a fixed start, as a plain `Duration`, for the engine's
/// receive times; works with any `Clock<Duration>` without exposing its instant type.
struct Stopwatch: Sendable {
    private let read: @Sendable () -> Duration

    /// Starts measuring on `clock` now.
    init(clock: some Clock<Duration>) {
        let start = clock.now
        read = { start.duration(to: clock.now) }
    }

    /// The time since the stopwatch was created.
    var elapsed: Duration { read() }
}
