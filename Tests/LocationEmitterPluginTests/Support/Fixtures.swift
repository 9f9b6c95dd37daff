import Foundation

/// Test files: the gpsd captures in `Tests/Fixtures/gpsd-logs`, and GPX written on the fly.
enum Fixtures {
    /// The directory of the gpsd captures.
    static let captures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/gpsd-logs")

    /// The route shipped for the offline demo.
    static let demoRoute = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Config/routes/wellington-waterfront.gpx").path

    /// The path of capture `name`.
    static func capture(_ name: String) -> String {
        captures.appendingPathComponent(name).path
    }

    /// Writes `text` to a new temporary file and returns its path; `body` runs with it and the
    /// file is removed afterwards.
    static func withTemporaryFile<T>(_ text: String, _ body: (String) throws -> T) throws -> T {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("switchyard-location-\(UUID().uuidString)").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try body(path)
    }

    /// A GPX document with one track of `points` (latitude, longitude, ISO time or `nil`).
    static func gpx(_ points: [(Double, Double, String?)], extra: String = "") -> String {
        let body = points.map { latitude, longitude, time in
            "<trkpt lat=\"\(latitude)\" lon=\"\(longitude)\">" + (time.map { "<time>\($0)</time>" } ?? "") + extra + "</trkpt>"
        }.joined(separator: "\n")
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
            <wpt lat="1" lon="1"><time>2020-01-01T00:00:00Z</time></wpt>
            <trk><trkseg>
            \(body)
            </trkseg></trk>
            </gpx>
            """
    }
}
