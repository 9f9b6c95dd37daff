import FoundationEssentials

/// What the journal tells of each plugin at a moment of the past, folded from its actions: how
/// many each source emitted, its last action, and its lifecycle as the bus journaled it
/// (`bus/started`, `bus/plugin-failed`, `bus/plugin-restarted`, `bus/stopping`). The live
/// counters of dropped and queued actions are not journaled, so the past has none.
///
/// Counted from the action after ``since``: 0 when the reader reduced from the journal's start,
/// a snapshot's action when it started there (a snapshot holds the state, not these counts).
/// Bounded: at most ``sourceLimit`` sources; actions of sources beyond them are counted in
/// ``untracked``.
public struct PluginActivity: Sendable, Hashable {
    /// The most sources kept (plugins, `control`, `http`, `nats:ORIGIN`, …).
    public static let sourceLimit = 256

    /// One source's activity.
    public struct Entry: Sendable, Hashable {
        /// Actions it emitted after ``PluginActivity/since``.
        public var emitted = 0
        /// Its last action's type, id and time.
        public var lastType: String?
        public var lastID: UInt64?
        public var lastTime: Date?
        /// `running`, `failed` or `stopping`, as the journal's lifecycle actions left it;
        /// `nil` when none named it.
        public var status: String?
        /// The restart and failure counts and last error the lifecycle actions reported.
        public var restarts: Int?
        public var failures: Int?
        public var lastError: String?
    }

    /// The action the counts start after (0: the journal's start).
    public var since: UInt64
    /// By source name.
    public var sources: [String: Entry] = [:]
    /// Actions of sources beyond ``sourceLimit``.
    public var untracked = 0

    /// Activity counted from the action after `since`.
    public init(since: UInt64) {
        self.since = since
    }

    /// Counts `action` for its source, and the lifecycle it reports.
    public mutating func fold(_ action: BusAction) {
        // One lookup for a source already counted: a drag through the past folds every action.
        if let index = sources.index(forKey: action.source) {
            sources.values[index].record(action)
        } else if sources.count < Self.sourceLimit {
            sources[action.source, default: Entry()].record(action)
        } else {
            untracked += 1
        }
        guard action.source == "bus" else { return }
        switch action.type {
        case "bus/started":
            for case .string(let plugin) in action.payload["plugins"]?.arrayValue ?? [] { lifecycle(plugin) { $0.status = "running" } }
        case "bus/plugin-failed":
            guard let plugin = action.payload["plugin"]?.stringValue else { return }
            lifecycle(plugin) { entry in
                entry.status = "failed"
                entry.failures = action.payload["failures"]?.intValue
                entry.lastError = action.payload["error"]?.stringValue
            }
        case "bus/plugin-restarted":
            guard let plugin = action.payload["plugin"]?.stringValue else { return }
            lifecycle(plugin) { entry in
                entry.status = "running"
                entry.restarts = action.payload["restarts"]?.intValue
            }
        case "bus/stopping":
            for name in sources.keys where sources[name]?.status != nil { sources[name]?.status = "stopping" }
        default:
            return
        }
    }

    private mutating func lifecycle(_ plugin: String, _ change: (inout Entry) -> Void) {
        guard sources[plugin] != nil || sources.count < Self.sourceLimit else { return }
        change(&sources[plugin, default: Entry()])
    }

    /// `{"since": 0, "untracked": 0, "sources": {"gps": {"emitted": 12, "last": {"type", "id",
    /// "time"}, "status", "restarts", "failures", "lastError"}}}`; unknown values are `null`.
    public var json: JSON {
        .object([
            "since": .integer(Int64(clamping: since)),
            "untracked": .integer(Int64(untracked)),
            "sources": .object(sources.mapValues(\.json)),
        ])
    }
}

extension PluginActivity.Entry {
    mutating func record(_ action: BusAction) {
        emitted += 1
        lastType = action.type
        lastID = action.id
        lastTime = action.time
    }

    var json: JSON {
        func optional(_ value: Int?) -> JSON { value.map { .integer(Int64($0)) } ?? .null }
        let last: JSON = lastID.map { id in
            ["type": .string(lastType ?? ""), "id": .integer(Int64(clamping: id)), "time": lastTime.map { .string(Timestamp.iso8601($0)) } ?? .null]
        } ?? .null
        return ["emitted": .integer(Int64(emitted)), "last": last, "status": status.map(JSON.string) ?? .null,
                "restarts": optional(restarts), "failures": optional(failures), "lastError": lastError.map(JSON.string) ?? .null]
    }
}
