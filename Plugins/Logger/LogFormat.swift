import Switchyard

/// How the logger writes one action.
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
        switch self {
        case .json:
            action.json.serialize(into: &output)
        case .text:
            Timestamp.appendISO8601(action.time, to: &output)
            output.append(contentsOf: " #".utf8)
            appendDecimal(action.id, to: &output)
            output.append(UInt8(ascii: " "))
            output.append(contentsOf: action.type.utf8)
            output.append(contentsOf: " source=".utf8)
            output.append(contentsOf: action.source.utf8)
            if let cause = action.cause {
                output.append(contentsOf: " cause=#".utf8)
                appendDecimal(cause, to: &output)
            }
            if !action.payload.isNull {
                output.append(UInt8(ascii: " "))
                action.payload.serialize(into: &output)
            }
        }
    }

    private func appendDecimal(_ value: UInt64, to output: inout [UInt8]) {
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { buffer in
            var rest = value
            var start = buffer.count
            repeat {
                start -= 1
                buffer[start] = UInt8(ascii: "0") &+ UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            output.append(contentsOf: buffer[start...])
        }
    }
}
