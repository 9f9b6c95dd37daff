import Switchyard

/// How the logger writes one action.
public enum LogFormat: String, Sendable, Hashable, CaseIterable {
    /// `2026-11-22T09:30:00.125Z #12 location/changed source=location cause=#11 {"latitude":…}`
    case text
    /// The whole ``BusAction`` as one JSON object per line.
    case json

    /// The line for `action`, without its newline.
    public func line(for action: BusAction) -> String {
        switch self {
        case .json:
            return action.json.serialized()
        case .text:
            var line = Timestamp.iso8601(action.time)
            line += " #\(action.id) \(action.type) source=\(action.source)"
            if let cause = action.cause { line += " cause=#\(cause)" }
            if !action.payload.isNull { line += " " + action.payload.serialized() }
            return line
        }
    }
}
