import Synchronization

/// Counters the bus keeps beside the store's: actions reduced per source.
package final class BusCounters: Sendable {
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
    package struct Outcome: Sendable, Hashable {
        package var plugin: String
        package var outcome: String
        package var kind: String
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
    package func outcomes() -> [Outcome: UInt64] {
        counts.withLock { $0.outcomes }
    }

    /// Actions reduced so far whose source is `source`.
    func emitted(by source: String) -> UInt64 {
        counts.withLock { $0.bySource[source] ?? 0 }
    }

    /// Actions reduced so far by type: the first ``trackedTypes`` types seen each on their
    /// own (a type keeps its count once it has one, so every count only grows), the rest in
    /// `other`.
    package func byType() -> (types: [String: UInt64], other: UInt64) {
        counts.withLock { ($0.byType, $0.otherTypes) }
    }
}
