/// Counters of a bus's journal, as `switchyard stats` shows them.
public struct JournalStatistics: Sendable, Hashable {
    /// The journal directory.
    public var directory: String
    /// The bytes of every segment and snapshot.
    public var bytes: Int
    /// The number of segment files.
    public var segments: Int
    /// The sequence number of the last journaled action; 0 before the first.
    public var lastSequence: UInt64
    /// The sequence number of the latest snapshot written, if any.
    public var snapshotSequence: UInt64?
    /// When appended actions are flushed to disk.
    public var fsync: JournalSettings.Fsync
    /// The error that stopped journaling, if one did.
    public var failure: String?
    /// Damage found after start in the segments or snapshots behind the restore's snapshot
    /// (which restores do not read); `nil` while none is known.
    public var olderDamage: String? = nil
}
