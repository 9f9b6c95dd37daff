import SwitchyardBus

/// A `DEVICE` report, alone or inside `DEVICES`: a receiver gpsd reads.
struct GPSDDevice: Sendable, Hashable {
    /// The device path, such as `/dev/ttyUSB0`; empty when gpsd sent none.
    var path: String
    /// The driver gpsd chose, such as `NMEA0183` or `u-blox`.
    var driver: String?
    /// The receiver's own description (firmware, model), when it reported one.
    var subtype: String?
    /// The serial speed, bits per second.
    var bitsPerSecond: Int?
    /// Whether gpsd has the device open: `activated` is a time when it does and `0` when the
    /// device went away; `nil` when gpsd did not say.
    var isActive: Bool?

    /// Decodes the members of a DEVICE object.
    init(_ members: [String: JSON]) {
        path = members["path"]?.stringValue ?? ""
        driver = members["driver"]?.stringValue
        subtype = members["subtype"]?.stringValue
        bitsPerSecond = members["bps"]?.intValue
        switch members["activated"] {
        case .string(let time): isActive = !time.isEmpty
        case .integer(let value): isActive = value != 0
        case .number(let value): isActive = value != 0
        default: isActive = nil
        }
    }

    /// The `NAME/device` payload: `path`, `active` (true unless gpsd reported the device gone),
    /// and `driver`, `subtype`, `bps` when known.
    var payload: JSON {
        var members: [String: JSON] = ["path": .string(path), "active": .bool(isActive ?? true)]
        members["driver"] = driver.map(JSON.string)
        members["subtype"] = subtype.map(JSON.string)
        members["bps"] = bitsPerSecond.map { .integer(Int64($0)) }
        return .object(members)
    }
}
