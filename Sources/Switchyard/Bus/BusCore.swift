import FoundationEssentials
import Synchronization
import SwitchyardStreams

/// What every plugin context and runner of one bus share: the store, the router, the log, the
/// clock, the bus's name (as it started; a reload keeps it), the state slices and the counters.
final class BusCore: Sendable {
    let store: Store<JSON, BusAction>
    let router: ActionRouter
    let log: LogSink
    let clock: any Clock<Duration>
    let busName: String
    let slices: SliceTable
    let counters: BusCounters
    /// The counters plugins report themselves.
    let reporters = PluginReporters()
    /// The journal plugins may read; `nil` when the bus keeps none.
    let journal: PluginJournal?

    init(store: Store<JSON, BusAction>, router: ActionRouter, log: LogSink, clock: any Clock<Duration>,
         busName: String, slices: SliceTable, counters: BusCounters, journal: PluginJournal? = nil) {
        self.store = store
        self.router = router
        self.log = log
        self.clock = clock
        self.busName = busName
        self.slices = slices
        self.counters = counters
        self.journal = journal
    }

    func subscribe(_ subscription: ActionSubscription, owner: String?) -> PluginActions {
        router.subscribe(subscription, owner: owner)
    }

    /// Dispatches a lifecycle action from the bus itself and waits until it is reduced.
    func emit(_ type: String, payload: JSON = .null, cause: UInt64? = nil) async {
        await store.dispatch(BusAction(type: type, payload: payload, source: "bus", cause: cause))
    }
}

/// The state slices of the plugins a bus runs now; a reload replaces them.
final class SliceTable: Sendable {
    typealias Entry = (name: String, slice: StateSlice)

    private let entries: Mutex<[Entry]>

    init(_ entries: [Entry]) {
        self.entries = Mutex(entries)
    }

    var current: [Entry] { entries.withLock { $0 } }

    func replace(with entries: [Entry]) {
        self.entries.withLock { $0 = entries }
    }
}

/// Builds the bus store: state is an object with one slice per plugin that keeps one, each
/// handed only the actions its ``StateSlice/actions`` pattern matches.
///
/// A `bus/reloaded` action from the bus removes the slices its payload lists under
/// `droppedSlices` (plugins removed, or replaced by another kind); slices of plugins added by
/// the reload appear with their initial value on that same action. Both happen in the
/// reducer, so replaying the journal rebuilds the same state.
enum BusStateReducer {
    static let reloadedType = "bus/reloaded"

    static func initialState(_ slices: [SliceTable.Entry]) -> JSON {
        .object(Dictionary(slices.map { ($0.name, $0.slice.initial) }, uniquingKeysWith: { first, _ in first }))
    }

    /// The starting state from a snapshot: the snapshot's slices of plugins the bus still
    /// has, and the initial slice of every plugin it did not know.
    static func adopt(_ snapshot: JSON, slices: [SliceTable.Entry]) -> JSON {
        var members = snapshot.objectValue ?? [:]
        let names = Set(slices.map(\.name))
        members = members.filter { names.contains($0.key) }
        for (name, slice) in slices where members[name] == nil { members[name] = slice.initial }
        return .object(members)
    }

    static func reducer(_ table: SliceTable) -> @Sendable (inout JSON, BusAction) -> Void {
        { state, action in
            let reloaded = action.type == reloadedType && action.source == "bus"
            if reloaded, let dropped = action.payload["droppedSlices"]?.arrayValue {
                for name in dropped.compactMap(\.stringValue) { state[name] = nil }
            }
            let slices = table.current
            // Only the slices that follow this action's type are looked up and handed it; on a
            // reload every slice is looked up, as that is when the slices it added appear.
            guard let first = slices.firstIndex(where: { reloaded || $0.slice.actions.matches(action.type) }),
                  case .object(var members) = state else { return }
            // Release the enum's reference so each slice is mutated in place, not copied.
            state = .null
            for index in slices[first...].indices {
                let follows = slices[index].slice.actions.matches(action.type)
                guard follows || reloaded else { continue }
                // Through the value's index: the `default:` subscript cost two allocations and
                // a copy of the initial value per slice and action, most of the reducer's time.
                if let position = members.index(forKey: slices[index].name) {
                    if follows { slices[index].slice.reduce(&members.values[position], action) }
                } else {
                    var value = slices[index].slice.initial
                    if follows { slices[index].slice.reduce(&value, action) }
                    members[slices[index].name] = value
                }
            }
            state = .object(members)
        }
    }
}

/// Counters the bus keeps beside the store's: actions reduced per source.
final class BusCounters: Sendable {
    /// How many distinct action types get a count of their own; later types are counted
    /// together as `other`, so a bus that makes up types cannot grow memory or metrics
    /// without bound.
    static let trackedTypes = 100

    private struct Counts: Sendable {
        var bySource: [String: UInt64] = [:]
        var byType: [String: UInt64] = [:]
        var otherTypes: UInt64 = 0
        var outcomes: [Outcome: UInt64] = [:]
    }

    /// A fetch-style result a plugin emitted about itself: `NAME/loaded`, or `NAME/failed` with
    /// the payload's `kind` (network, timeout, http, decode).
    struct Outcome: Sendable, Hashable {
        var plugin: String
        var outcome: String
        var kind: String
    }

    private let counts = Mutex(Counts())
    private let abandonedPlugins = Atomic<Int>(0)

    /// Counts a plugin the bus gave up waiting for because it ignored cancellation.
    func countAbandoned() {
        abandonedPlugins.add(1, ordering: .relaxed)
    }

    /// Plugins abandoned so far (by stopping the bus or by reloads).
    var abandoned: Int {
        abandonedPlugins.load(ordering: .relaxed)
    }

    /// Counts a reduced batch by source and by type; one lock per batch. A run of actions of
    /// one source and type (a busy batch is mostly such runs) is looked up once.
    func count(_ actions: [BusAction]) {
        counts.withLock { counts in
            var start = 0
            while start < actions.count {
                // The strings, not the action: a copy of the action retained its payload too.
                let (type, source) = (actions[start].type, actions[start].source)
                var end = start + 1
                while end < actions.count, actions[end].type == type, actions[end].source == source { end += 1 }
                let run = UInt64(end - start)
                counts.bySource[source, default: 0] &+= run
                if let index = counts.byType.index(forKey: type) {
                    counts.byType.values[index] &+= run
                } else if counts.byType.count < Self.trackedTypes {
                    counts.byType[type] = run
                } else {
                    counts.otherTypes &+= run
                }
                // Once a run: its actions share type and source, which decide whether they are
                // outcomes at all; only a failure's kind is each action's own.
                if let outcome = Self.outcome(type: type, source: source) {
                    for index in start..<end {
                        let counted = Outcome(plugin: source, outcome: outcome,
                                              kind: outcome == "failed" ? actions[index].payload["kind"]?.stringValue ?? "unknown" : "")
                        if counts.outcomes.count < Self.trackedTypes || counts.outcomes[counted] != nil {
                            counts.outcomes[counted, default: 0] &+= 1
                        }
                    }
                }
                start = end
            }
        }
    }

    /// `loaded` or `failed` when `type` is `SOURCE/loaded` or `SOURCE/failed`; `nil` otherwise.
    private static func outcome(type: String, source: String) -> String? {
        // The last byte first: most types end in neither word.
        guard type.utf8.last == UInt8(ascii: "d"), type.utf8.count == source.utf8.count + 7, type.hasPrefix(source) else { return nil }
        if type.hasSuffix("/loaded") { return "loaded" }
        if type.hasSuffix("/failed") { return "failed" }
        return nil
    }

    /// Results plugins emitted about themselves (`NAME/loaded`, `NAME/failed` by kind).
    func outcomes() -> [Outcome: UInt64] {
        counts.withLock { $0.outcomes }
    }

    /// Actions reduced so far whose source is `source`.
    func emitted(by source: String) -> UInt64 {
        counts.withLock { $0.bySource[source] ?? 0 }
    }

    /// Actions reduced so far by type: the first ``trackedTypes`` types seen each on their
    /// own (a type keeps its count once it has one, so every count only grows), the rest in
    /// `other`.
    func byType() -> (types: [String: UInt64], other: UInt64) {
        counts.withLock { ($0.byType, $0.otherTypes) }
    }
}
