/// An action as a client sends it, the same through every door: the `action` of the control
/// protocol's `dispatch` and the body of HTTP's `POST /actions` —
/// `{"type":"door/open","payload":{...},"source":"app","cause":12}`.
///
/// Parsing is strict: an unknown member is an error (with a suggestion when one is close), so
/// a typo is reported instead of silently ignored.
enum ActionBody {
    /// The members an action may have; `id` and `time` are accepted and ignored.
    static let members: Set<String> = ["type", "payload", "source", "cause", "id", "time"]

    /// The action `value` describes, its payload untouched; the bus stamps id and time, so what
    /// the client sent for them is ignored. The source defaults to `control`.
    /// - Throws: ``ControlError/invalidAction(_:)`` naming the unknown member or what is wrong.
    static func parse(_ value: JSON) throws(ControlError) -> BusAction {
        if case .object(let object) = value, let unknown = firstUnknown(in: object, allowed: members) {
            throw .invalidAction(unknownMember(unknown, of: "an action", allowed: members))
        }
        do {
            let parsed = try BusAction(json: value, defaultSource: "control")
            return BusAction(type: parsed.type, payload: parsed.payload, source: parsed.source, cause: parsed.cause)
        } catch {
            throw .invalidAction(error.description)
        }
    }

    /// The first unknown key in sorted order, so the error does not depend on hashing; the
    /// sort happens only when there is one.
    static func firstUnknown(in members: [String: JSON], allowed: Set<String>) -> String? {
        guard members.keys.contains(where: { !allowed.contains($0) }) else { return nil }
        return members.keys.filter { !allowed.contains($0) }.min()
    }

    /// The error text for an unknown member `key` of `owner`, with a suggestion when one of
    /// `allowed` is close.
    static func unknownMember(_ key: String, of owner: String, allowed: Set<String>) -> String {
        var text = "unknown member of \(owner)"
        if let suggestion = DidYouMean.suggestion(for: key, among: allowed) { text += "; did you mean \"\(suggestion)\"?" }
        return text + " (known: \(allowed.sorted().joined(separator: ", ")))"
    }
}
