import SwitchyardBus

/// One line a child wrote to stdout, decoded per the `exec` protocol.
///
/// A line is one JSON object: an action (`type` required, `payload` optional, `cause`
/// optional; anything else, such as the `id`, `time` and `source` of an echoed action, is
/// ignored because the bus stamps its own), or the handshake `{"ready": true}`. A line of
/// whitespace only is ignored.
enum ChildMessage: Sendable, Hashable {
    /// An action to dispatch.
    case action(type: String, payload: JSON, cause: UInt64?)
    /// The child is ready (`{"ready": true}`).
    case ready

    /// Decodes a line; `nil` for a blank line.
    /// - Throws: ``ProtocolViolation`` saying what is wrong with the line.
    static func decode(_ line: [UInt8]) throws(ProtocolViolation) -> ChildMessage? {
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) {
            return nil
        }
        let value: JSON
        do {
            value = try JSON(parsingInput: line, repeatedNames: .lastWins)
        } catch {
            throw ProtocolViolation("not JSON: \(error.description)")
        }
        guard case .object(let members) = value else {
            throw ProtocolViolation("expected a JSON object, got \(value.kindDescription)")
        }
        guard let typeValue = members["type"] else {
            if let ready = members["ready"] {
                guard ready == .bool(true) else {
                    throw ProtocolViolation("\"ready\" must be true, got \(ready.serialized())")
                }
                return .ready
            }
            throw ProtocolViolation("an action needs a \"type\" (or send {\"ready\": true} to report ready)")
        }
        guard let type = typeValue.stringValue, ActionType.isValid(type) else {
            throw ProtocolViolation("\"type\" must be a lower-case \"domain/event\" string, got \(Self.quote(typeValue))")
        }
        var cause: UInt64?
        if let causeValue = members["cause"], !causeValue.isNull {
            guard case .integer(let number) = causeValue, number >= 0 else {
                throw ProtocolViolation("\"cause\" must be the id of an action (an integer >= 0) or null, got \(Self.quote(causeValue))")
            }
            cause = UInt64(number)
        }
        return .action(type: type, payload: members["payload"] ?? .null, cause: cause)
    }

    private static func quote(_ value: JSON) -> String {
        let text = value.serialized()
        return text.count > 60 ? String(text.prefix(60)) + "…" : text
    }
}

/// Why a line from a child is not a valid message.
struct ProtocolViolation: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, as a sentence fragment.
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
