@testable import LocationEmitterPlugin
import SwitchyardBus
import Testing

/// Availability and change decisions from source status and samples.
struct LocationEngineTests {
    private func engine(_ settings: LocationFilter.Settings = .init(), start: Availability = .unavailable) -> LocationEngine {
        LocationEngine(filter: settings, sourceName: "gps", availability: start)
    }

    private func fix(_ mode: Int, _ latitude: Double? = nil, _ longitude: Double? = nil) -> PositionSample {
        PositionSample(gpsdFix: [
            "mode": .integer(Int64(mode)), "lat": latitude.map(JSON.number) ?? .null,
            "lon": longitude.map(JSON.number) ?? .null, "time": "2035-05-26T09:12:32.000Z",
        ])
    }

    private func availabilities(_ outputs: [LocationEngine.Output]) -> [Availability] {
        outputs.compactMap { output in
            if case .availability(let availability, _) = output { return availability }
            return nil
        }
    }

    /// gpsd's status drives availability; each change is reported once.
    @Test func statusDrivesAvailability() {
        var engine = engine()
        #expect(availabilities(engine.sourceStatus("connecting")) == [])
        #expect(availabilities(engine.sourceStatus("connected")) == [.searching])
        #expect(availabilities(engine.sourceStatus("connected")) == [])
        #expect(availabilities(engine.receive(fix(3, 1, 2), at: .zero)) == [.available])
        #expect(availabilities(engine.sourceStatus("connected")) == [])
        #expect(availabilities(engine.sourceStatus("stale")) == [.searching])
        #expect(availabilities(engine.sourceStatus("disconnected")) == [.unavailable])
        #expect(availabilities(engine.sourceStatus("stale")) == [])
        #expect(availabilities(engine.sourceStatus("no-device")) == [])
        #expect(availabilities(engine.sourceStatus("something-new")) == [])
    }

    /// Fixes without a usable position keep the source searching and change nothing.
    @Test func noFixMeansSearching() {
        var engine = engine(start: .searching)
        #expect(engine.receive(fix(1), at: .zero) == [])
        #expect(engine.receive(fix(3), at: .zero) == [])
        #expect(engine.receive(fix(0, 1, 2), at: .zero) == [])
        #expect(engine.availability == .searching)
    }

    /// A usable fix makes the source available, then the location changes, with every field.
    @Test func firstFixReportsAvailabilityThenChange() {
        var engine = engine()
        let sample = PositionSample(gpsdFix: [
            "mode": 3, "lat": -37.784788333, "lon": 175.314896667, "altHAE": 83.6, "altMSL": 59.9,
            "eph": 20.9, "speed": 0.35, "track": 181.39, "time": "2034-08-17T03:07:19.000Z",
        ])
        let outputs = engine.receive(sample, at: .zero)
        #expect(outputs == [
            .availability(.available, reason: "fix of mode 3"),
            .changed([
                "latitude": -37.784788333, "longitude": 175.314896667, "altitude": 59.9, "horizontalAccuracy": 20.9,
                "speed": 0.35, "course": 181.39, "mode": 3, "timestamp": "2034-08-17T03:07:19.000Z", "source": "gps",
            ]),
        ])
    }

    /// Losing the fix goes back to searching; the last location is not repeated.
    @Test func losingTheFix() {
        var engine = engine()
        _ = engine.receive(fix(2, 1, 2), at: .zero)
        #expect(availabilities(engine.receive(fix(1), at: .seconds(1))) == [.searching])
        let regained = engine.receive(fix(2, 1, 2), at: .seconds(2))
        #expect(availabilities(regained) == [.available])
        #expect(regained.count == 1)
    }

    /// gpsd payloads: eph, else the longer of epx and epy; altMSL, else altHAE.
    @Test func filtersDoNotTouchAvailability() {
        // Fixes below the minimum mode search; the filters hold changes back without touching
        // availability.
        var engine = engine(.init(minimumMode: 3, distanceFilter: 1000))
        #expect(availabilities(engine.receive(fix(2, 1, 2), at: .zero)) == [.searching])
        #expect(engine.receive(fix(3, 1, 2), at: .zero).count == 2)
        #expect(engine.receive(fix(3, 1, 2.001), at: .seconds(1)) == [])
        #expect(engine.availability == .available)
    }

    /// gpsd payloads: `eph` first, else the longer of `epx`/`epy`; `altMSL`, else `altHAE`.
    @Test func gpsdPayloadReading() {
        let ait250 = PositionSample(gpsdFix: ["mode": 2, "lat": 52.7, "lon": 5.29, "epx": 1.9, "epy": 3.0])
        #expect(ait250.horizontalAccuracy == 3.0)
        let hae = PositionSample(gpsdFix: ["mode": 3, "lat": 1, "lon": 2, "altHAE": 83.6])
        #expect(hae.altitude == 83.6)
        let nonsense = PositionSample(gpsdFix: ["mode": 9, "lat": 95, "lon": 2])
        #expect(nonsense.mode == 0 && nonsense.coordinate == nil)
    }

    /// A replay's start searches, its end makes the source unavailable.
    @Test func replayStartAndEnd() {
        var engine = engine()
        #expect(availabilities(engine.sourceStarted("replaying")) == [.searching])
        _ = engine.receive(fix(3, 1, 2), at: .zero)
        #expect(engine.sourceStarted("again") == [])
        #expect(engine.sourceEnded("the replay ended") == [.availability(.unavailable, reason: "the replay ended")])
    }
}
