import Foundation
@testable import LocationEmitterPlugin
import Testing

/// GPX files read with the plugin's own XML tokenizer, and replay files loaded by content.
struct GPXTests {
    private func read(_ text: String) throws -> GPXReader.Result {
        try GPXReader.read(Data(text.utf8))
    }

    /// The demo route: 144 timed 3D points 10 s apart around the Wellington waterfront.
    @Test func demoRoute() throws {
        let track = try ReplayTrack.load(path: Fixtures.demoRoute)
        #expect(track.points.count == 144)
        #expect(track.skipped == nil)
        #expect(track.points.first?.sample.coordinate == Coordinate(latitude: -41.2846, longitude: 174.7779))
        #expect(track.points.first?.sample.timestamp == "2026-03-14T21:00:00.000Z")
        #expect(track.points.dropFirst().allSatisfy { $0.delay == .seconds(10) })
        #expect(track.points.allSatisfy { $0.sample.mode == 3 && $0.sample.altitude != nil })
    }

    /// Points without a time or a valid position are skipped and counted; waypoints are ignored.
    @Test func skippedPoints() throws {
        // Points without a time or a valid position are skipped and counted; waypoints are not
        // track points.
        let result = try read(Fixtures.gpx([
            (-41.2846, 174.7779, "2026-03-14T21:00:00Z"), (-41.2847, 174.7780, nil), (91, 0, "2026-03-14T21:00:10Z"),
            (-41.2848, 174.7781, "yesterday"), (-41.2849, 174.7782, "2026-03-14T21:00:20.5+01:00"),
        ]))
        #expect(result.samples.count == 2)
        #expect(result.skippedPoints == 3)
        #expect(result.firstProblem == "line 6: a track point without a valid time")
        #expect(result.samples.last?.sample.timestamp == "2026-03-14T20:00:20.500Z")
    }

    /// GPX 1.0 speed and course, the fix element, and namespace prefixes are understood.
    @Test func optionalElements() throws {
        let text = """
            <gpx:gpx xmlns:gpx="http://www.topografix.com/GPX/1/0" version="1.0"><gpx:trk><gpx:trkseg>
            <gpx:trkpt lat="-33.4489" lon="-70.6693"><gpx:time>2024-01-01T00:00:00Z</gpx:time><gpx:speed>1.5</gpx:speed><gpx:course>270</gpx:course><gpx:fix>2d</gpx:fix></gpx:trkpt>
            <gpx:trkpt lat="-33.4490" lon="-70.6693"><gpx:time>2024-01-01T00:00:01Z</gpx:time><gpx:fix>none</gpx:fix></gpx:trkpt>
            </gpx:trkseg></gpx:trk></gpx:gpx>
            """
        let samples = try read(text).samples.map(\.sample)
        #expect(samples.map(\.mode) == [2, 1])
        #expect(samples.first?.speed == 1.5 && samples.first?.course == 270)
        #expect(samples.last?.coordinate == nil)
    }

    /// Malformed XML is an error with a line and column: those of the offending end tag's `<`
    /// (libxml2 gave the column after its `>`, 30).
    @Test func malformedDocument() {
        #expect {
            try Fixtures.withTemporaryFile("<?xml version=\"1.0\"?>\n<gpx><trk>\n<trkpt lat=\"1\" lon=\"2\"></trk></gpx>") { path in
                try ReplayTrack.load(path: path)
            }
        } throws: { error in
            let description = (error as? ReplayTrack.LoadError)?.description ?? ""
            return description.contains("is not valid GPX: line 3, column 24: an end tag does not match its start tag")
        }
    }

    /// A file without positions, and a missing file, are errors naming the file.
    @Test func unusableFiles() throws {
        try Fixtures.withTemporaryFile(Fixtures.gpx([])) { path in
            _ = #expect(throws: ReplayTrack.LoadError(description: "\(path) holds no GPX track point with a time and no NMEA RMC or GGA sentence")) {
                try ReplayTrack.load(path: path)
            }
        }
        #expect {
            try ReplayTrack.load(path: "/nonexistent/route.gpx")
        } throws: { error in
            (error as? ReplayTrack.LoadError)?.description == "cannot read /nonexistent/route.gpx: No such file or directory"
        }
    }

    /// NMEA logs load by content, with skipped sentences reported.
    @Test func nmeaByContent() throws {
        let track = try ReplayTrack.load(path: Fixtures.capture("com-1289.log"))
        #expect(!track.points.isEmpty)
        #expect(track.skipped?.contains("sentence(s) skipped, first at line") == true)
    }

    /// Recorded delays: one second untimed, none backwards, across midnight for times of day.
    @Test func delays() throws {
        // Recorded delays: one second for untimed samples, none when time goes back, across
        // midnight for times of day.
        let point = PositionSample(mode: 3, coordinate: Coordinate(latitude: 0, longitude: 0))
        let track = try #require(ReplayTrack([
            RecordedSample(sample: point, time: .absolute(100)),
            RecordedSample(sample: point, time: .absolute(102.5)),
            RecordedSample(sample: point, time: .absolute(101)),
            RecordedSample(sample: point, time: nil),
            RecordedSample(sample: point, time: .timeOfDay(86_399)),
            RecordedSample(sample: point, time: .timeOfDay(1)),
        ]))
        #expect(track.points.map(\.delay) == [.zero, .seconds(2.5), .zero, .seconds(1), .seconds(1), .seconds(2)])
        #expect(ReplayTrack([]) == nil)
    }
}
