import FoundationEssentials

/// Where a replay that begins in the middle of a recording (`replay --from`) starts: the
/// state at the newest snapshot before its first action, and the recorded actions between
/// that snapshot and it, which the replaying bus reduces without effects before the first
/// replayed action — so the replay starts from the state the recording had there, not from
/// an empty one.
///
/// The snapshot is written into the replay's own (new) data directory, with the recording's
/// slice names, so the replaying bus restores it as it restores its own and continues the
/// recorded sequence numbers: its journal then mirrors the recording from the snapshot on.
/// Without a snapshot before the first action (an exported file has none) every recorded
/// action before it is reduced instead.
public struct ReplayStart: Sendable {
    /// The sequence number of the snapshot the replay starts from; `nil` from the empty state.
    public let snapshotSequence: UInt64?
    /// The recorded actions after the snapshot and before the first replayed action, in
    /// order: reduced without effects, never seen by a plugin.
    public let between: [BusAction]
    private let snapshot: JournalSnapshot?
    private let slices: SliceManifest?

    /// The start for a replay whose first action is the recorded `first`.
    /// - Throws: ``JournalError`` when the recording or its snapshot is damaged.
    public init(recording: JournalRecording, first: UInt64) throws(JournalError) {
        var snapshot: JournalSnapshot?
        var slices: SliceManifest?
        if let dataDirectory = recording.dataDirectory {
            let listed = try JournalLayout(dataDirectory: dataDirectory).list().snapshots
            if let newest = listed.filter({ $0.sequence < first }).max(by: { $0.sequence < $1.sequence }) {
                snapshot = try JournalSnapshot.read(newest)
                slices = try SliceManifest.read(dataDirectory: dataDirectory)
            }
        }
        let after = snapshot?.sequence ?? 0
        between = try recording.actions(where: { $0.id > after }, until: { $0.id >= first })
        self.snapshot = snapshot
        self.slices = slices
        snapshotSequence = snapshot?.sequence
    }

    /// Writes the snapshot and the recording's slice names into the journal of
    /// `dataDirectory`, which must hold none yet; does nothing without a snapshot. The
    /// directory is created (0700) and locked as a bus does, and released again.
    /// - Throws: ``JournalError`` when the directory cannot be created, locked or written.
    public func seed(dataDirectory: String) throws(JournalError) {
        guard let snapshot else { return }
        let lock = try DataDirectoryLock(dataDirectory: dataDirectory)
        defer { withExtendedLifetime(lock) {} }
        let layout = JournalLayout(dataDirectory: dataDirectory)
        try FileSystem.makeDirectories(layout.directory)
        try slices?.write(dataDirectory: dataDirectory)
        try snapshot.write(in: layout, at: Date())
    }
}
