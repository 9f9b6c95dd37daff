/// What a plugin may read of the bus's journal: where it is, how far it reached when the bus
/// started, and followers and cursors for it. A plugin that publishes what the bus recorded
/// (the NATS bridge's store-and-forward) reads from it instead of holding actions in memory.
public struct PluginJournal: Sendable, Hashable {
    /// The bus's data directory; the journal is its `journal` folder.
    public let dataDirectory: String
    /// The last sequence number journaled before this start (0 for an empty journal): the
    /// actions after it are this run's.
    public let restoredThrough: UInt64

    /// Describes the journal of the data directory `dataDirectory`, restored through `restoredThrough`.
    public init(dataDirectory: String, restoredThrough: UInt64) {
        self.dataDirectory = dataDirectory
        self.restoredThrough = restoredThrough
    }

    /// A follower handing over the actions after `sequence`.
    public func follower(after sequence: UInt64) -> JournalFollower {
        JournalFollower(dataDirectory: dataDirectory, after: sequence)
    }

    /// The durable cursor named `name` (use the plugin's name) in the data directory.
    public func cursor(named name: String) -> JournalCursor {
        JournalCursor(dataDirectory: dataDirectory, name: name)
    }
}
