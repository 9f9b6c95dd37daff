import Switchyard

/// The validated settings of one `network-fetch` plugin; see ``NetworkFetchPlugin`` for the
/// config keys.
struct NetworkFetchConfiguration: Sendable {
    /// The actions that trigger a request (`on`).
    var trigger: TypePattern
    /// Default: ``TriggerPolicy/latest``.
    var policy: TriggerPolicy = .latest
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
    var emittedTypes: [String] {
        ["loading", "loaded", "failed"].map { "\(prefix)/\($0)" }
    }

    /// Problems no single setting shows: a prefix that makes invalid action types, and a
    /// trigger pattern that matches the plugin's own actions (each would trigger another
    /// request, forever). Each problem is a key and a sentence.
    var crossCheckProblems: [(key: String, message: String)] {
        var problems: [(key: String, message: String)] = []
        if !emittedTypes.allSatisfy(ActionType.isValid) {
            problems.append(("emit", "\"\(prefix)\" does not make valid action types such as \"\(prefix)/loaded\" (lower-case letters, digits, -, _ and .)"))
        } else if let looping = emittedTypes.first(where: trigger.matches) {
            problems.append(("on", "\"\(trigger)\" matches this plugin's own \"\(looping)\", which would trigger requests endlessly"))
        }
        return problems
    }
}
