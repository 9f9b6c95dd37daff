import SwitchyardStreams

/// What the doors need from their bus, the one interface from every door to it, the same type
/// for the control socket and HTTP: each door builds it from the bus as it starts
/// (``init(bus:steps:)``); as closures, so a door can be tested on its own.
struct DoorBackend: Sendable {
    /// Dispatches actions, in order, without waiting, and calls the completion once per action
    /// with its sequence number once it is reduced, journaled and published; with
    /// ``DispatchOutcome/stopping`` when the bus is stopping and did not take it,
    /// ``DispatchOutcome/journalFailed(_:)`` when the journal could not write it. Returns `false`
    /// when the inbox was full and some wait for room, so later actions could overtake them.
    var dispatch: @Sendable ([BusAction], @escaping @Sendable (DispatchOutcome) -> Void) -> Bool
    /// Dispatches the actions of a loop turn, of many connections, in order, as one hand-over
    /// (see ``Store/send(moving:)``): each entry's completion is called once, as ``dispatch``
    /// calls it. Leaves the entries empty, their buffer kept for the next turn. Returns how
    /// many went into the inbox at once; the others wait for room, so later actions of their
    /// connections could overtake them.
    var dispatchTurn: @Sendable (inout [StoreInbox<BusAction>.Entry]) -> Int
    /// The current state.
    var state: @Sendable () -> JSON
    /// Subscribes to the lines of reduced actions matching a pattern, with a buffer of the
    /// given size that drops (and counts) what does not fit by the given policy, so a watcher
    /// never holds up the bus.
    var actions: @Sendable (TypePattern, Int, OverflowPolicy) -> Broadcast<ActionLine>.Subscription
    /// Subscribes to the state: the current one first, then changes, coalesced.
    var states: @Sendable () -> Broadcast<JSON>.Subscription
    /// The bus's counters as the JSON object of a `stats` reply.
    var statistics: @Sendable () -> JSON
    /// The go-aheads of a step-by-step replay, which `step` requests give; `nil` for any
    /// other bus (they are answered `not-stepping`).
    var steps: ReplaySteps? = nil
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
    /// The past of the bus's journal, for `state?at=`, `why` and `diff`; `nil` without a journal.
    var history: StateHistory?
    /// Whether dispatches are refused: a recording served by `switchyard inspect`.
    var readOnly = false
    /// The dashboard page `GET /` serves, made once by the HTTP door (empty for the control
    /// socket's): it shows maps for the kinds with a position source among the bus's plugins.
    var dashboard: [UInt8] = []
}
