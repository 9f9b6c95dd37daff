import SwitchyardBus

/// Where a placeholder reads its value: `payload.a.b` (the triggering action's payload) or
/// `state.a.b` (the bus state when the request is built).
///
/// Steps address object members by name and array elements by index; a path with no steps
/// (`{payload}`) is the whole root.
struct PlaceholderPath: Sendable, Hashable, CustomStringConvertible {
    enum Root: String, Sendable, Hashable, CaseIterable {
        case payload
        case state
    }

    var root: Root
    var steps: [String]

    init(root: Root, steps: [String]) {
        self.root = root
        self.steps = steps
    }

    /// Parses the text between the braces; `nil` when it does not start with a known root or
    /// has an empty step (`payload..x`, `state.`).
    init?(_ text: Substring) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard let first = parts.first, let root = Root(rawValue: String(first)) else { return nil }
        let steps = parts.dropFirst().map(String.init)
        guard steps.allSatisfy({ !$0.isEmpty }) else { return nil }
        self.init(root: root, steps: steps)
    }

    /// The path as written in a template, without braces: `payload.latitude`.
    var description: String {
        ([root.rawValue] + steps).joined(separator: ".")
    }
}

/// The values placeholders read when a request is built.
struct TemplateScope: Sendable {
    /// The payload of the action that triggered the request.
    var payload: JSON
    /// The whole bus state (`{"plugin name": slice, …}`).
    var state: JSON

    /// The value at `path`, or `nil` when a step is missing; a present `null` is returned as
    /// ``JSON/null`` so callers can tell "no such member" from "member is null".
    func value(at path: PlaceholderPath) -> JSON? {
        (path.root == .payload ? payload : state).value(atSteps: path.steps)
    }
}
