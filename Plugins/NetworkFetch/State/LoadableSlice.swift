import SwitchyardBus

/// `state.NAME`: the plugin's loadable, folded from its own `loading` / `loaded` / `failed`.
///
/// Shape: `{"status": "idle" | "loading" | "loaded" | "failed", "value", "error",
/// "updatedAt", "requestId"}`. `loading` makes its request the current one; `loaded` and
/// `failed` count only for the current request, so a response that arrives after a newer
/// trigger (a cancelled `latest` request, an overtaken `every` request) can never overwrite the
/// state. `value` keeps the last loaded value while loading again or after a failure; `error`
/// is `{kind, status, message, attempts}` after a failure and `null` otherwise.
struct LoadableSlice: Sendable {
    /// The plugin's name: only actions it emitted change the slice.
    let source: String
    /// The action prefix the plugin emits (`NAME` unless `emit` says otherwise).
    let prefix: String

    static let initial: JSON = [
        "status": "idle", "value": nil, "error": nil, "updatedAt": nil, "requestId": nil,
    ]

    /// The slice of the plugin `source` emitting under `prefix`: starts at ``initial`` and
    /// follows only `PREFIX/*`.
    static func slice(source: String, prefix: String) -> StateSlice {
        let reducer = LoadableSlice(source: source, prefix: prefix)
        return StateSlice(initial: initial, actions: .domain(prefix)) { slice, action in
            reducer.reduce(&slice, action)
        }
    }

    /// Folds `action` into `slice`; pure, so journal replays rebuild the same state.
    func reduce(_ slice: inout JSON, _ action: BusAction) {
        guard action.source == source, action.type.hasPrefix(prefix),
            action.type.utf8.count > prefix.utf8.count + 1,
            action.type.utf8[action.type.utf8.index(action.type.utf8.startIndex, offsetBy: prefix.utf8.count)]
                == UInt8(ascii: "/")
        else { return }
        let event = action.type.dropFirst(prefix.count + 1)
        guard case .object(var members) = slice, let requestId = action.payload["requestId"] else { return }
        let updatedAt = JSON.string(Timestamp.iso8601(action.time))
        switch event {
        case "loading":
            members["status"] = "loading"
            members["error"] = .null
            members["requestId"] = requestId
        case "loaded":
            guard members["requestId"] == requestId else { return }
            members["status"] = "loaded"
            members["value"] = action.payload["value"] ?? .null
            members["error"] = .null
        case "failed":
            guard members["requestId"] == requestId else { return }
            members["status"] = "failed"
            var error: [String: JSON] = [:]
            for key in ["kind", "status", "message", "attempts"] {
                error[key] = action.payload[key] ?? .null
            }
            members["error"] = .object(error)
        default:
            return
        }
        members["updatedAt"] = updatedAt
        slice = .object(members)
    }
}
