import SwitchyardBus

/// One line from gpsd, classified: a report this plugin understands, or why it was set aside.
///
/// gpsd speaks newline-delimited JSON objects, each with a `class`. Lines that are not JSON
/// (NMEA echoed by another watch mode, receiver garbage relayed by a broken daemon) and classes
/// the plugin has no use for (AIS, GST, PPS, TOFF, …) are reported, never thrown, so one odd line
/// never breaks the feed.
enum GPSDLine: Sendable, Hashable {
    /// A report the plugin acts on.
    case report(GPSDReport)
    /// A JSON object of a class the plugin ignores, such as `AIS` or `GST`.
    case ignored(className: String)
    /// A line that does not start with `{`: not meant to be JSON.
    case notJSON
    /// A line that looks like JSON but is not a report: the reason says why.
    case malformed(String)

    /// Classifies one line, without its terminator; a trailing `\r` and surrounding blanks are
    /// allowed.
    init(parsing line: some Collection<UInt8>) {
        guard let first = line.first(where: { !Self.isBlank($0) }), first == UInt8(ascii: "{") else {
            self = .notJSON
            return
        }
        let value: JSON
        do {
            value = try JSON(parsingInput: line, repeatedNames: .lastWins)
        } catch {
            self = .malformed("not valid JSON: \(error)")
            return
        }
        guard case .object(let members) = value else {
            self = .malformed("expected a JSON object, got \(value.kindDescription)")
            return
        }
        guard let className = members["class"]?.stringValue else {
            self = .malformed("a report without a \"class\" string")
            return
        }
        self = Self.classify(className, members)
    }

    private static func classify(_ className: String, _ members: [String: JSON]) -> GPSDLine {
        switch className {
        case "TPV": return .report(.fix(GPSDFix(members)))
        case "SKY": return .report(.sky(GPSDSky(members)))
        case "DEVICE": return .report(.device(GPSDDevice(members)))
        case "DEVICES":
            let devices = (members["devices"]?.arrayValue ?? []).compactMap { element in
                element.objectValue.map(GPSDDevice.init)
            }
            return .report(.devices(devices))
        case "VERSION": return .report(.version(GPSDVersion(members)))
        case "WATCH": return .report(.watch(GPSDWatch(members)))
        case "ERROR": return .report(.error(message: members["message"]?.stringValue ?? "(no message)"))
        default: return .ignored(className: className)
        }
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
    }
}

/// A gpsd report the plugin acts on, decoded with every field optional.
enum GPSDReport: Sendable, Hashable {
    /// `VERSION`: sent on connect.
    case version(GPSDVersion)
    /// `DEVICES`: the devices gpsd knows, sent in reply to `?WATCH`.
    case devices([GPSDDevice])
    /// `DEVICE`: a device appeared, changed or went away.
    case device(GPSDDevice)
    /// `WATCH`: gpsd accepted the watch.
    case watch(GPSDWatch)
    /// `TPV`: a time-position-velocity report.
    case fix(GPSDFix)
    /// `SKY`: satellites in view and dilutions of precision.
    case sky(GPSDSky)
    /// `ERROR`: gpsd refused a command, such as a watch on a device it does not know.
    case error(message: String)
}
