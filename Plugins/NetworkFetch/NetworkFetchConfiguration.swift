import SwitchyardBus

/// The validated settings of one `network-fetch` plugin; see ``NetworkFetchPlugin`` for the
/// config keys.
struct NetworkFetchConfiguration: Sendable {
    /// The actions that trigger a request (`on`).
    var trigger: TypePattern
    /// Default: ``WorkPolicy/latest``.
    var policy: WorkPolicy = .latest
    /// Quiet time after a trigger before acting on it; default `nil`, act at once.
    var debounce: Duration?
    var request: RequestTemplate
    /// The limit for one attempt. Default: 10 s.
    var timeout: Duration = .seconds(10)
    /// Default: 3 attempts, 0.5 s base delay, 30 s maximum delay.
    var retry = RetryPolicy()
    /// Default: 10 MiB (10485760 bytes).
    var maxResponseBytes = 10 * 1024 * 1024
    /// A dotted path into the response JSON; default `nil`, the whole document.
    var extract: String?
    /// The prefix of emitted action types (`emit`); default the plugin's name.
    var prefix: String
    /// Redirects followed before giving up. Default: 5.
    var maxRedirects = 5

    /// The action types the plugin emits.
    var emittedTypes: [String] { Self.emittedTypes(prefix) }

    /// The action types a plugin with `prefix` emits.
    static func emittedTypes(_ prefix: String) -> [String] {
        ["loading", "loaded", "failed"].map { "\(prefix)/\($0)" }
    }

    /// Why `prefix` cannot be used: it does not make valid action types. `nil` when it can.
    var prefixProblem: String? { Self.prefixProblem(prefix) }

    /// Why `prefix` cannot be used as an `emit` prefix; `nil` when it can.
    static func prefixProblem(_ prefix: String) -> String? {
        guard !emittedTypes(prefix).allSatisfy(ActionType.isValid) else { return nil }
        return "\"\(prefix)\" does not make valid action types such as \"\(prefix)/loaded\""
            + " (lower-case letters, digits, -, _ and .)"
    }

    /// Why `trigger` cannot be used: it matches one of the plugin's own actions, each of which
    /// would trigger another request, forever. `nil` when it can.
    var loopProblem: String? {
        guard let looping = emittedTypes.first(where: trigger.matches) else { return nil }
        return "\"\(trigger)\" matches this plugin's own \"\(looping)\", which would trigger requests endlessly"
    }
}
