/// The common request read straight into its action: `{"op":"dispatch","action":{…}}` with
/// the action's `type`, and optionally `payload`, `source` and `cause`.
///
/// The general reading builds a dictionary for the request and one for the action and then
/// looks every member up, which cost most of a dispatch's instructions; this one walks the
/// line once with the package's byte reader (``JSONReader``, whose values and strings are the
/// full parser's) and builds only the action. It answers only when the general reading would
/// give the same request, and `nil` for anything else — another op, a member it does not read
/// (`id`, `time`), a duplicate, a name or `op` written with escapes, an invalid value,
/// malformed JSON — which the general reading then reads, or reports with its exact error.
extension ControlRequest {
    /// `lastType` is the type of the connection's dispatch before, if any: a client mostly
    /// sends one type over and over, and a type written as that one's bytes is that type,
    /// valid, without reading and checking it again (a fifth of the request's reading).
    static func plainDispatch(_ bytes: UnsafeBufferPointer<UInt8>, lastType: inout String?) -> BusAction? {
        guard bytes.count <= JSONLimits.maximumBytes else { return nil }
        var reader = JSONReader(bytes)
        reader.skipWhitespace()
        guard reader.enterObject() else { return nil }
        var sawOp = false
        var action: BusAction?
        while true {
            if !sawOp, reader.member("op") {
                guard reader.take(#""dispatch""#) else { return nil }
                sawOp = true
            } else if action == nil, reader.member("action") {
                guard let read = plainAction(&reader, lastType: &lastType) else { return nil }
                action = read
            } else {
                return nil
            }
            guard let more = reader.nextMember() else { return nil }
            if !more { break }
        }
        reader.skipWhitespace()
        guard reader.atEnd, sawOp, let action else { return nil }
        return action
    }

    /// The action object, as ``BusAction/init(json:defaultSource:)`` reads it with the source
    /// `control`, the way the general reading then builds it (without `id` and `time`).
    private static func plainAction(_ reader: inout JSONReader, lastType: inout String?) -> BusAction? {
        guard reader.enterObject() else { return nil }
        var type: String?
        var payload: JSON?
        var source: String?
        var cause: UInt64??
        while true {
            if type == nil, reader.member("type") {
                if let last = lastType, reader.take(string: last) {
                    type = last
                } else {
                    guard let text = reader.string(), ActionType.isValid(text) else { return nil }
                    type = text
                    lastType = text
                }
            } else if payload == nil, reader.member("payload") {
                guard let value = reader.value() else { return nil }
                payload = value
            } else if source == nil, reader.member("source") {
                guard let text = reader.string() else { return nil }
                source = text
            } else if cause == nil, reader.member("cause") {
                guard let value = reader.value() else { return nil }
                if value.isNull {
                    cause = .some(nil)
                } else {
                    guard let number = value.intValue, number >= 0 else { return nil }
                    cause = .some(UInt64(number))
                }
            } else {
                return nil
            }
            guard let more = reader.nextMember() else { return nil }
            if !more { break }
        }
        guard let type else { return nil }
        return BusAction(type: type, payload: payload ?? .null, source: source ?? "control", cause: cause ?? nil)
    }
}
