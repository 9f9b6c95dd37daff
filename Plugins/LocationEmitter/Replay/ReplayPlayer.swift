/// Plays a ``ReplayTrack`` on a clock, `speed` times faster than recorded, once or in a loop.
///
/// Each point is scheduled against the start of its lap (the sum of the delays before it,
/// divided by `speed`), so time spent delivering never accumulates into drift. A loop starts
/// its next lap one recorded second (divided by `speed`) after the last point.
struct ReplayPlayer: Sendable {
    /// The recording.
    let track: ReplayTrack
    /// How many times faster than recorded; greater than 0.
    let speed: Double
    /// Whether to start over after the last point.
    let loop: Bool

    /// Delivers every point at its time; returns after the last point of a track played once.
    ///
    /// - Throws: `CancellationError` when the task is cancelled.
    func play(on clock: any Clock<Duration>, _ deliver: (PositionSample) async -> Void) async throws {
        try await play(clock: clock, deliver)
    }

    private func play<C: Clock<Duration>>(clock: C, _ deliver: (PositionSample) async -> Void) async throws {
        var lapStart = clock.now
        repeat {
            var offset = Duration.zero
            for point in track.points {
                offset += point.delay
                let due = lapStart.advanced(by: offset / speed)
                if clock.now < due { try await clock.sleep(until: due, tolerance: nil) }
                try Task.checkCancellation()
                await deliver(point.sample)
            }
            lapStart = lapStart.advanced(by: (offset + .seconds(1)) / speed)
        } while loop
    }
}
