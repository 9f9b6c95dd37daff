@testable import LocationEmitterPlugin
import Testing

/// The location filter: fix mode, accuracy, duplicates, minimum interval and distance.
struct LocationFilterTests {
    private func sample(
        _ latitude: Double, _ longitude: Double, mode: Int = 3, accuracy: Double? = nil, time: String? = nil
    ) -> PositionSample {
        PositionSample(
            mode: mode, coordinate: Coordinate(latitude: latitude, longitude: longitude),
            horizontalAccuracy: accuracy, timestamp: time)
    }

    /// A track of `count` points from (`latitude`, `longitude`), each step `step` degrees of
    /// latitude or longitude (along a meridian or the equator, so every step is exactly
    /// R · step = 11.1195 m for 0.0001°), wrapping longitudes into [-180, 180].
    private func track(_ latitude: Double, _ longitude: Double, latitudeStep: Double, longitudeStep: Double, count: Int)
        -> [PositionSample]
    {
        (0..<count).map { index in
            var lon = longitude + Double(index) * longitudeStep
            if lon > 180 { lon -= 360 }
            if lon < -180 { lon += 360 }
            return sample(latitude + Double(index) * latitudeStep, lon, time: "t\(index)")
        }
    }

    private func emitted(_ samples: [PositionSample], _ settings: LocationFilter.Settings) -> [Int] {
        var filter = LocationFilter(settings: settings)
        return samples.indices.filter { filter.evaluate(samples[$0], receivedAt: .seconds($0)) == .accepted }
    }

    /// The distance filter is right in every hemisphere and across the antimeridian, equator and Greenwich.
    @Test(arguments: [
        ("across 180° on the equator, eastwards", 0.0, 179.999, 0.0, 0.0001),
        ("across 180° on the equator, westwards", 0.0, -179.999, 0.0, -0.0001),
        ("across 180° going south along it", 0.0009, 180.0, -0.0001, 0.0),
        ("south and west: Santiago, southwards", -33.4489, -70.6693, -0.0001, 0.0),
        ("south and east: Hamilton, northwards", -37.7848, 175.3149, 0.0001, 0.0),
        ("north and west: Miami, southwards", 26.6362, -80.1898, -0.0001, 0.0),
        ("north and east: Munich, northwards", 48.1500, 11.5847, 0.0001, 0.0),
        ("across the equator at 43°W", 0.0009, -43.1729, -0.0001, 0.0),
        ("across Greenwich on the equator", 0.0, -0.0009, 0.0, 0.0001),
    ])
    func distanceFilterEverywhere(name: String, latitude: Double, longitude: Double, latitudeStep: Double, longitudeStep: Double) {
        // With steps of 11.1195 m, a 25 m or 30 m filter passes every third point (33.36 m) and a
        // 35 m filter every fourth (44.48 m) — across the antimeridian, the equator and Greenwich,
        // and in every hemisphere.
        let points = track(latitude, longitude, latitudeStep: latitudeStep, longitudeStep: longitudeStep, count: 19)
        #expect(emitted(points, .init(distanceFilter: 25)) == [0, 3, 6, 9, 12, 15, 18], "\(name)")
        #expect(emitted(points, .init(distanceFilter: 30)) == [0, 3, 6, 9, 12, 15, 18], "\(name)")
        #expect(emitted(points, .init(distanceFilter: 35)) == [0, 4, 8, 12, 16], "\(name)")
        #expect(emitted(points, .init(distanceFilter: 0)) == Array(0..<19), "\(name)")
    }

    /// The distance counts from the last emitted point, not the last seen: slow drift adds up.
    @Test func distanceIsFromTheLastEmittedPoint() {
        var filter = LocationFilter(settings: .init(distanceFilter: 20))
        #expect(filter.evaluate(sample(0, 0, time: "a"), receivedAt: .zero) == .accepted)
        #expect(filter.evaluate(sample(0, 0.0001, time: "b"), receivedAt: .seconds(1)) == .tooClose)
        #expect(filter.evaluate(sample(0, 0.0002, time: "c"), receivedAt: .seconds(2)) == .accepted)
    }

    /// Fixes below the minimum mode, or without a position, are no fix.
    @Test(arguments: [(2, 2, true), (2, 3, true), (3, 2, false), (3, 3, true), (2, 1, false), (2, 0, false)])
    func minimumMode(minimum: Int, mode: Int, accepted: Bool) {
        var filter = LocationFilter(settings: .init(minimumMode: minimum))
        #expect((filter.evaluate(sample(1, 2, mode: mode), receivedAt: .zero) == .accepted) == accepted)
        let noPosition = PositionSample(mode: 3, coordinate: nil)
        #expect(filter.evaluate(noPosition, receivedAt: .zero) == .noFix)
    }

    /// Fixes with a larger error are rejected; fixes without an estimate pass.
    @Test func maximumHorizontalError() {
        var filter = LocationFilter(settings: .init(maximumHorizontalError: 20))
        #expect(filter.evaluate(sample(1, 2, accuracy: 20.9, time: "a"), receivedAt: .zero) == .inaccurate)
        #expect(filter.evaluate(sample(1, 2, accuracy: 20, time: "b"), receivedAt: .zero) == .accepted)
        #expect(filter.evaluate(sample(1, 3, time: "c"), receivedAt: .zero) == .accepted)
    }

    /// The same (time, latitude, longitude) as the last emitted sample is a duplicate.
    @Test func duplicates() {
        // The same (time, latitude, longitude) as the last emitted is a duplicate — also without a
        // time; a new time or a new position is not.
        var filter = LocationFilter(settings: .init())
        #expect(filter.evaluate(sample(1, 2, time: "2035-05-26T09:12:32.000Z"), receivedAt: .zero) == .accepted)
        #expect(filter.evaluate(sample(1, 2, time: "2035-05-26T09:12:32.000Z"), receivedAt: .zero) == .duplicate)
        #expect(filter.evaluate(sample(1, 2, time: "2035-05-26T09:12:33.000Z"), receivedAt: .zero) == .accepted)
        #expect(filter.evaluate(sample(1, 2.1, time: "2035-05-26T09:12:33.000Z"), receivedAt: .zero) == .accepted)
        #expect(filter.evaluate(sample(5, 5), receivedAt: .zero) == .accepted)
        #expect(filter.evaluate(sample(5, 5), receivedAt: .zero) == .duplicate)
    }

    /// The minimum interval runs on receive time, whatever the samples' own times say.
    @Test func minimumIntervalByReceiveTime() {
        var filter = LocationFilter(settings: .init(minimumInterval: .seconds(1)))
        #expect(filter.evaluate(sample(1, 2, time: "2035-01-01T00:00:10Z"), receivedAt: .zero) == .accepted)
        #expect(filter.evaluate(sample(1, 3, time: "2035-01-01T00:00:20Z"), receivedAt: .milliseconds(999)) == .tooSoon)
        #expect(filter.evaluate(sample(1, 4, time: "2035-01-01T00:00:05Z"), receivedAt: .seconds(1)) == .accepted)
    }

    /// A rejected sample does not become the reference.
    @Test func rejectedSamplesAreNotReferences() {
        var filter = LocationFilter(settings: .init(maximumHorizontalError: 10, distanceFilter: 100))
        #expect(filter.evaluate(sample(0, 0, accuracy: 5, time: "a"), receivedAt: .zero) == .accepted)
        #expect(filter.evaluate(sample(0, 0.01, accuracy: 50, time: "b"), receivedAt: .zero) == .inaccurate)
        #expect(filter.evaluate(sample(0, 0.0005, accuracy: 5, time: "c"), receivedAt: .zero) == .tooClose)
    }
}
