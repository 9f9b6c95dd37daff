import Foundation
import SwitchyardBus

/// The gpsd captures in `Tests/Fixtures/gpsd-logs` and what their `.chk` files say.
enum Fixtures {
    /// The directory of the captures.
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/gpsd-logs")

    /// The path of capture `name`, such as `bu353s4.log`.
    static func path(_ name: String) -> String {
        directory.appendingPathComponent(name).path
    }

    /// Every JSON report line in `name`'s `.chk` file (its NMEA lines skipped).
    static func checkReports(_ name: String) throws -> [String] {
        let text = try String(contentsOf: directory.appendingPathComponent(name + ".chk"), encoding: .utf8)
        return text.split(whereSeparator: \.isNewline).map(String.init).filter { $0.hasPrefix("{") }
    }

    /// The TPV reports of `name`'s `.chk`, counted per mode.
    static func fixModes(_ name: String) throws -> [Int: Int] {
        var counts: [Int: Int] = [:]
        for line in try checkReports(name) where line.contains("\"class\":\"TPV\"") {
            let mode = try JSON(parsing: line)["mode"]?.intValue ?? 0
            counts[mode, default: 0] += 1
        }
        return counts
    }
}
