@testable import LocationEmitterPlugin
import SwitchyardTestSupport
import SwitchyardTesting
import Synchronization
import Testing

/// Replay timing on a manual clock: speed factor, loop, cancellation.
struct ReplayPlayerTests {
    private final class Deliveries: Sendable {
        private let samples = Mutex<[PositionSample]>([])
        func append(_ sample: PositionSample) { samples.withLock { $0.append(sample) } }
        var count: Int { samples.withLock { $0.count } }
        var latitudes: [Double] { samples.withLock { $0.compactMap(\.coordinate?.latitude) } }

        /// Waits until `count` samples arrived; false after a generous, scaled real-time bound.
        func wait(for expected: Int) async -> Bool {
            await eventually { count >= expected }
        }
    }

    private static let track = ReplayTrack([
        RecordedSample(sample: .init(mode: 3, coordinate: .init(latitude: 1, longitude: 0)), time: .absolute(0)),
        RecordedSample(sample: .init(mode: 3, coordinate: .init(latitude: 2, longitude: 0)), time: .absolute(10)),
        RecordedSample(sample: .init(mode: 3, coordinate: .init(latitude: 3, longitude: 0)), time: .absolute(30)),
    ])!

    /// Starts playing ``track`` on a manual clock, recording what it delivers.
    private func play(speed: Double, loop: Bool) -> (ManualClock, Deliveries, Task<Void, any Error>) {
        let clock = ManualClock()
        let deliveries = Deliveries()
        let player = ReplayPlayer(track: Self.track, speed: speed, loop: loop)
        return (clock, deliveries, Task { try await player.play(on: clock) { deliveries.append($0) } })
    }

    /// At speed 10, points recorded 10 s and 20 s apart come 1 s and 2 s apart — not earlier.
    @Test func speedFactor() async throws {
        let (clock, deliveries, task) = play(speed: 10, loop: false)
        #expect(await deliveries.wait(for: 1))
        #expect(await clock.waitForSleepers(atLeast: 1))
        clock.advance(by: .milliseconds(999))
        #expect(await clock.waitForSleepers(atLeast: 1))
        #expect(deliveries.count == 1)
        clock.advance(by: .milliseconds(1))
        #expect(await deliveries.wait(for: 2))
        #expect(await clock.waitForSleepers(atLeast: 1))
        clock.advance(by: .seconds(2))
        try await task.value
        #expect(deliveries.latitudes == [1, 2, 3])
    }

    /// A loop starts over one recorded second (scaled) after the last point.
    @Test func loopStartsOver() async throws {
        let (clock, deliveries, task) = play(speed: 10, loop: true)
        #expect(await deliveries.wait(for: 1))
        // Points at 0, 1 and 3 s; the next lap starts at 3.1 s.
        for _ in 0..<7 {
            #expect(await clock.waitForSleepers(atLeast: 1))
            clock.advance(by: .milliseconds(500))
        }
        #expect(await deliveries.wait(for: 4))
        #expect(await clock.waitForSleepers(atLeast: 1))
        #expect(deliveries.latitudes == [1, 2, 3, 1])
        clock.advance(by: .seconds(1))
        #expect(await deliveries.wait(for: 5))
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
    }

    /// Cancelling a replay waiting for its next point ends it with `CancellationError`.
    @Test func cancellation() async {
        let (clock, deliveries, task) = play(speed: 1, loop: false)
        #expect(await clock.waitForSleepers(atLeast: 1))
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(deliveries.count == 1)
    }
}
