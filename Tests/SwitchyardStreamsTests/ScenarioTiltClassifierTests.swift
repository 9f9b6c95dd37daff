import Foundation
import SwitchyardStreams
import SwitchyardTestSupport
import SwitchyardTesting
import Testing

/// A device-tilt classifier, written as an app would: gravity vectors become a frontal and a
/// lateral tilt, each without repeats and settled for 0.25 s, and the two combine into
/// "vertical" or "not vertical".
enum TiltClassifier {
    /// A gravity vector in device coordinates: `y` runs up the screen, `z` out of it.
    struct Gravity: Sendable {
        var x: Double
        var y: Double
        var z: Double
    }

    enum Tilt: Sendable, Equatable {
        case upright
        case tilted
    }

    enum Verticality: String, Sendable, Equatable {
        case vertical
        case notVertical = "not vertical"
    }

    /// Tilts beyond this many degrees from upright count as tilted.
    static let limit = 20.0

    /// The forward or backward tilt, from the vector's projection on the y-z plane.
    static func frontal(_ gravity: Gravity) -> Tilt {
        abs(atan2(gravity.z, -gravity.y) * 180 / .pi) <= limit ? .upright : .tilted
    }

    /// The sideways tilt, from the vector's projection on the x-y plane.
    static func lateral(_ gravity: Gravity) -> Tilt {
        abs(atan2(gravity.x, -gravity.y) * 180 / .pi) <= limit ? .upright : .tilted
    }

    static func verticality<C: Clock>(
        of gravity: some AsyncSequence<Gravity, Never> & Sendable,
        clock: C
    ) -> some AsyncSequence<Verticality, Never> & Sendable where C.Duration == Duration {
        let readings = gravity.share(buffer: 1)
        let frontalTilt = readings.map(frontal).removeDuplicates().debounce(for: .milliseconds(250), clock: clock)
        let lateralTilt = readings.map(lateral).removeDuplicates().debounce(for: .milliseconds(250), clock: clock)
        return frontalTilt.combineLatest(lateralTilt)
            .map { (frontal: Tilt, lateral: Tilt) in frontal == .upright && lateral == .upright ? Verticality.vertical : .notVertical }
            .removeDuplicates()
    }
}

@Suite(.scaledTimeLimit(minutes: 1))
struct ScenarioTiltClassifierTests {
    typealias Gravity = TiltClassifier.Gravity

    static let upright = Gravity(x: 0, y: -1, z: 0)
    static let leanedForward = Gravity(x: 0, y: -cos(40 * .pi / 180), z: sin(40 * .pi / 180))
    static let leanedSideways = Gravity(x: sin(40 * .pi / 180), y: -cos(40 * .pi / 180), z: 0)

    /// The sensor samples faster than the device moves, so each reading arrives three times.
    /// With a shared buffer of one, the third copy is taken only after both branches took the
    /// second, which they ask for only after handling the first: once the source sees demand
    /// again, both tilt branches have handled the reading.
    private func report(_ gravity: Gravity, to sensor: TestSource<Gravity, Never>) async {
        for _ in 0..<3 { sensor.send(gravity) }
        await sensor.waitForDemand()
    }

    /// Vertical once both tilts settle; a 100 ms flick forward changes nothing; leaning
    /// sideways turns it "not vertical" after 0.25 s; the end of the readings ends it.
    @Test func classifiesSettledTiltOnly() async {
        let clock = ManualClock()
        let sensor = TestSource<Gravity, Never>()
        let recorder = TestRecorder(TiltClassifier.verticality(of: sensor, clock: clock))

        await report(Self.upright, to: sensor)
        await clock.waitForSleepers(count: 2)
        clock.advance(by: .milliseconds(250))
        #expect(await recorder.waitForElements(count: 1) == [.vertical])

        await report(Self.leanedForward, to: sensor)
        await clock.waitForSleepers(count: 1)
        clock.advance(by: .milliseconds(100))
        await report(Self.upright, to: sensor)
        clock.advance(by: .milliseconds(150))
        await clock.waitForSleepers(count: 1)
        clock.advance(by: .milliseconds(100))

        await report(Self.leanedSideways, to: sensor)
        await clock.waitForSleepers(count: 1)
        clock.advance(by: .milliseconds(249))
        await clock.waitForSleepers(count: 1)
        #expect(recorder.elements == [.vertical])
        clock.advance(by: .milliseconds(1))
        #expect(await recorder.waitForElements(count: 2) == [.vertical, .notVertical])

        sensor.finish()
        #expect(await recorder.waitForCompletion() == .finished)
        #expect(recorder.elements.map(\.rawValue) == ["vertical", "not vertical"])
    }

    /// The classification of single vectors, at and around the 20° limit.
    @Test(arguments: [
        (Gravity(x: 0, y: -1, z: 0), TiltClassifier.Tilt.upright, TiltClassifier.Tilt.upright),
        (Gravity(x: 0, y: -cos(0.3), z: sin(0.3)), .upright, .upright),
        (Gravity(x: 0, y: -cos(0.4), z: sin(0.4)), .tilted, .upright),
        (Gravity(x: sin(0.4), y: -cos(0.4), z: 0), .upright, .tilted),
        (Gravity(x: 0, y: -cos(0.4), z: -sin(0.4)), .tilted, .upright),
    ])
    func classifiesVectors(gravity: Gravity, frontal: TiltClassifier.Tilt, lateral: TiltClassifier.Tilt) {
        #expect(TiltClassifier.frontal(gravity) == frontal)
        #expect(TiltClassifier.lateral(gravity) == lateral)
    }
}
