import SwitchyardBus

/// A `SKY` report: the satellites in view and the dilutions of precision.
///
/// gpsd sends one per cycle, over 3 KB with many satellites in view; some carry only the
/// dilutions (from a GSA sentence) and no satellite list. Counts gpsd did not send are worked
/// out from the list when there is one.
struct GPSDSky: Sendable, Hashable, GPSDNumberFields {
    /// The device that produced the report.
    var device: String?
    /// The report time as gpsd wrote it.
    var time: String?
    /// Satellites in view: gpsd's `nSat`, else the length of the list.
    var visible: Int?
    /// Satellites used in the fix: gpsd's `uSat`, else those marked `used` in the list.
    var used: Int?
    /// Horizontal dilution of precision.
    var hdop: Double?
    /// Vertical dilution of precision.
    var vdop: Double?
    /// Position (3D) dilution of precision.
    var pdop: Double?
    /// Geometric dilution of precision.
    var gdop: Double?
    /// The mean signal strength (dBHz, to 0.1) of the satellites used, when any reported one.
    var meanUsedSignal: Double?

    /// Decodes the members of a SKY object; malformed satellite entries are skipped.
    init(_ members: [String: JSON]) {
        device = members["device"]?.stringValue
        time = members["time"]?.stringValue
        decodeNumbers(members)
        let satellites = (members["satellites"]?.arrayValue ?? []).compactMap(\.objectValue)
        let usedSatellites = satellites.filter { $0["used"]?.boolValue == true }
        visible = members["nSat"]?.intValue ?? (satellites.isEmpty ? nil : satellites.count)
        used = members["uSat"]?.intValue ?? (satellites.isEmpty ? nil : usedSatellites.count)
        let signals = usedSatellites.compactMap { $0["ss"]?.doubleValue }
        meanUsedSignal = signals.isEmpty ? nil : (signals.reduce(0, +) / Double(signals.count) * 10).rounded() / 10
    }

    static var numberFields: [(name: String, field: WritableKeyPath<GPSDSky, Double?>)] {
        [("hdop", \.hdop), ("vdop", \.vdop), ("pdop", \.pdop), ("gdop", \.gdop)]
    }

    /// The `NAME/satellites` payload: `visible`, `used`, `hdop`, `vdop`, `pdop`, `gdop`,
    /// `meanUsedSignal`, `time`, `device`, each only when known.
    var summaryPayload: JSON {
        var members: [String: JSON] = [:]
        members["device"] = device.map(JSON.string)
        members["time"] = time.map(JSON.string)
        members["visible"] = visible.map { .integer(Int64($0)) }
        members["used"] = used.map { .integer(Int64($0)) }
        encodeNumbers(into: &members)
        members["meanUsedSignal"] = meanUsedSignal.map(JSON.number)
        return .object(members)
    }
}
