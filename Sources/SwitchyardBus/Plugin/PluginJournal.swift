/// What a plugin may read of the bus's journal: where it is, how far it reached when the bus
/// started, and followers and cursors for it. A plugin that publishes what the bus recorded
/// (the NATS bridge's store-and-forward) reads from it instead of holding actions in memory.
public struct PluginJournal: Sendable, Hashable {
    /// The bus's data directory; the journal is its `journal` folder.
    public let dataDirectory: String
    /// The last sequence number journaled before this start (0 for an empty journal): the
    /// actions after it are this run's.
    public let restoredThrough: UInt64
    /// Tells when the bus appends to the journal; `nil` for a journal described from outside
    /// the bus that writes it (then a reader has nobody to tell it and polls).
    public let appends: JournalAppends?

    /// Describes the journal of the data directory `dataDirectory`, restored through
    /// `restoredThrough`, whose appends `appends` tells of (default: nobody does).
    public init(dataDirectory: String, restoredThrough: UInt64, appends: JournalAppends? = nil) {
        self.dataDirectory = dataDirectory
        self.restoredThrough = restoredThrough
        self.appends = appends
    }

    /// Journals are the same when they describe the same directory from the same start.
    public static func == (lhs: PluginJournal, rhs: PluginJournal) -> Bool {
        lhs.dataDirectory == rhs.dataDirectory && lhs.restoredThrough == rhs.restoredThrough
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(dataDirectory)
        hasher.combine(restoredThrough)
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
