/// What the HTTP server needs from its bus, as closures so the server can be tested on its
/// own: the control backend's operations, and what only HTTP shows.
struct HTTPBackend: Sendable {
    /// Dispatch, state, actions, states and statistics, as the control socket has them.
    var control: ControlBackend
    /// Whether the bus is ready (every plugin started, none failing, no feed stale), and why
    /// not: one line per problem.
    var readiness: @Sendable () -> (ready: Bool, problems: [String])
    /// The Prometheus text exposition of the bus's counters.
    var metrics: @Sendable () -> String
    /// The id the next accepted action gets: a `Last-Event-ID` at or past it names an action
    /// the bus never published.
    var nextActionID: @Sendable () -> UInt64
    /// The data directory whose journal an event stream resumes from; `nil` without a journal.
    var journalDirectory: String?
}
