/// How one action is written as a line: by the logger plugin, `switchyard tail` and
/// `switchyard journal show`.
public enum LogFormat: String, Sendable, Hashable, CaseIterable {
    /// `2026-11-22T09:30:00.125Z #12 location/changed source=location cause=#11 {"latitude":…}`
    case text
    /// The whole ``BusAction`` as one JSON object per line.
    case json

    /// The line for `action`, without its newline.
    public func line(for action: BusAction) -> String {
        var bytes: [UInt8] = []
        append(action, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the line for `action`, without its newline, to `output`: the logger writes every
    /// action, so its lines go straight into the writer's buffer instead of through strings.
    public func append(_ action: BusAction, to output: inout [UInt8]) {
        var times = TimestampText()
        append(action, times: &times, to: &output)
    }

    /// Appends the line for `action` as ``append(_:to:)`` does, its time written through
    /// `times`, which the logger keeps from one action to the next (a batch shares one time).
    package func append(_ action: BusAction, times: inout TimestampText, to output: inout [UInt8]) {
        switch self {
        case .json:
            action.json.serialize(into: &output)
        case .text:
            times.append(action.time, to: &output)
            LineBytes.append(" #", to: &output)
            LineBytes.appendDecimal(action.id, to: &output)
            output.append(UInt8(ascii: " "))
            LineBytes.append(action.type, to: &output)
            LineBytes.append(" source=", to: &output)
            LineBytes.append(action.source, to: &output)
            if let cause = action.cause {
                LineBytes.append(" cause=#", to: &output)
                LineBytes.appendDecimal(cause, to: &output)
            }
            if !action.payload.isNull {
                output.append(UInt8(ascii: " "))
                action.payload.serialize(into: &output)
            }
        }
    }
}
