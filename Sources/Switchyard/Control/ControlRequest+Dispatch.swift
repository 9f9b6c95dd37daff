/// The common request read straight into its action: `{"op":"dispatch","action":{…}}` with
/// the action's `type`, and optionally `payload`, `source` and `cause`.
///
/// The general reading builds a dictionary for the request and one for the action and then
/// looks every member up, which cost most of a dispatch's instructions; this one walks the
/// line once with the same parser and builds only the action. It answers only when the
/// general reading would give the same request, and `nil` for anything else — another op, a
/// member it does not read (`id`, `time`), a duplicate, an invalid value, malformed JSON —
/// which the general reading then reads, or reports with its exact error.
extension ControlRequest {
    static func plainDispatch(_ bytes: UnsafeBufferPointer<UInt8>) -> BusAction? {
        guard bytes.count <= JSONLimits.maximumBytes else { return nil }
        var parser = JSONParser(bytes: bytes, maximumDepth: JSONLimits.maximumDepth)
        do throws(JSONParseError) {
            return try parser.readPlainDispatch()
        } catch {
            return nil
        }
    }
}

extension JSONParser {
    fileprivate mutating func readPlainDispatch() throws(JSONParseError) -> BusAction? {
        skipWhitespace()
        guard peek() == ASCII.openBrace, try !openObject() else { return nil }
        var sawOp = false
        var action: BusAction?
        while true {
            let key = try readKey()
            if key == "op", !sawOp {
                guard case .string("dispatch") = try parseValue() else { return nil }
                sawOp = true
            } else if key == "action", action == nil {
                guard let read = try readPlainAction() else { return nil }
                action = read
            } else {
                return nil
            }
            if try closeMember() { break }
        }
        skipWhitespace()
        guard index == bytes.count, sawOp, let action else { return nil }
        return action
    }

    /// The action object, as ``BusAction/init(json:defaultSource:)`` reads it with the source
    /// `control`, the way the general reading then builds it (without `id` and `time`).
    private mutating func readPlainAction() throws(JSONParseError) -> BusAction? {
        guard peek() == ASCII.openBrace, try !openObject() else { return nil }
        var type: String?
        var payload: JSON?
        var source: String?
        var cause: UInt64??
        while true {
            let key = try readKey()
            switch key {
            case "type" where type == nil:
                guard case .string(let text) = try parseValue(), ActionType.isValid(text) else { return nil }
                type = text
            case "payload" where payload == nil:
                payload = try parseValue()
            case "source" where source == nil:
                guard case .string(let text) = try parseValue() else { return nil }
                source = text
            case "cause" where cause == nil:
                let value = try parseValue()
                if value.isNull {
                    cause = .some(nil)
                } else {
                    guard let number = value.intValue, number >= 0 else { return nil }
                    cause = .some(UInt64(number))
                }
            default:
                return nil
            }
            if try closeMember() { break }
        }
        guard let type else { return nil }
        return BusAction(type: type, payload: payload ?? .null, source: source ?? "control", cause: cause ?? nil)
    }

    /// Enters the object at `{`; `true` when it is empty (and already left).
    private mutating func openObject() throws(JSONParseError) -> Bool {
        try enterContainer()
        index += 1
        skipWhitespace()
        guard peek() == ASCII.closeBrace else { return false }
        index += 1
        depth -= 1
        return true
    }

    /// A member's key and its `:`, leaving the parser at the value.
    private mutating func readKey() throws(JSONParseError) -> String {
        guard peek() == ASCII.quote else { throw error("expected a key") }
        let key = try parseString()
        skipWhitespace()
        guard peek() == ASCII.colon else { throw error("expected ':'") }
        index += 1
        skipWhitespace()
        return key
    }

    /// After a member: `true` at the object's `}` (left), `false` after a `,` before another.
    private mutating func closeMember() throws(JSONParseError) -> Bool {
        skipWhitespace()
        switch peek() {
        case ASCII.comma:
            index += 1
            skipWhitespace()
            guard peek() != ASCII.closeBrace else { throw error("trailing comma") }
            return false
        case ASCII.closeBrace:
            index += 1
            depth -= 1
            return true
        default:
            throw error("expected ',' or '}'")
        }
    }
}
