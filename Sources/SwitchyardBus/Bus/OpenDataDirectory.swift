import Synchronization

/// A bus's data directory at run time: its lock and its journal.
final class OpenDataDirectory: Sendable {
    let dataDirectory: String
    let journal: Journal?
    private let lock: Mutex<DataDirectoryLock?>

    /// What opening found: the state to start from and the first sequence number to stamp.
    struct Opened: Sendable {
        var directory: OpenDataDirectory
        var state: JSON
        var firstSequence: UInt64
    }

    private init(dataDirectory: String, journal: Journal?, lock: DataDirectoryLock) {
        self.dataDirectory = dataDirectory
        self.journal = journal
        self.lock = Mutex(lock)
    }

    /// Takes the data directory's lock and, with a journal, restores the state from it.
    /// - Throws: ``JournalError`` when another bus holds the directory or the journal is corrupt.
    static func open(settings: BusSettings, services: BusServices, slices: [SliceTable.Entry],
                     reducer: (inout JSON, BusAction) -> Void, log: LogSink) throws(JournalError) -> Opened {
        let lock = try DataDirectoryLock(dataDirectory: settings.dataDirectory)
        var state = BusStateModel.initialState(slices)
        var firstSequence: UInt64 = 1
        var journal: Journal?
        if services.journal {
            let layout = JournalLayout(dataDirectory: settings.dataDirectory)
            let current = SliceManifest(slices.map(\.name))
            let (segments, snapshots) = try layout.list()
            let recorded = segments.isEmpty && snapshots.isEmpty ? nil : try SliceManifest.read(dataDirectory: settings.dataDirectory)
            if let recorded, recorded != current {
                guard services.acceptsSliceChanges else {
                    throw .slicesChanged(dataDirectory: settings.dataDirectory, journal: recorded.slices, bus: current.slices)
                }
                log.write(.warning, "journal: restoring a journal written with the slices \(recorded.slices) into a bus with \(current.slices), as told")
            }
            if recorded != current { try current.write(dataDirectory: settings.dataDirectory) }
            let clock = ContinuousClock()
            let started = clock.now
            let (opened, restored) = try Journal.open(
                layout: JournalLayout(dataDirectory: settings.dataDirectory), settings: settings.journal,
                initialState: state, adopt: { BusStateModel.adopt($0, slices: slices) }, reduce: reducer, log: log,
                progress: services.restoreProgress
            )
            journal = opened
            state = restored.state
            firstSequence = restored.nextSequence
            if restored.lastSequence > 0 {
                let snapshot = restored.snapshotSequence.map { "snapshot \($0) + " } ?? ""
                log.write(.info, "journal: restored through sequence \(restored.lastSequence) (\(snapshot)\(restored.replayed) replayed) from \(opened.layout.directory) in \(Int((clock.now - started).seconds * 1000)) ms")
            }
        }
        let directory = OpenDataDirectory(dataDirectory: settings.dataDirectory, journal: journal, lock: lock)
        return Opened(directory: directory, state: state, firstSequence: firstSequence)
    }

    /// Records a reload's slices beside the journal, so the next start compares against them.
    /// A failure is logged: the journal itself is intact, and the next start names the mismatch.
    func recordSlices(_ names: [String], log: LogSink) {
        guard journal != nil else { return }
        do {
            try SliceManifest(names).write(dataDirectory: dataDirectory)
        } catch {
            log.write(.warning, "journal: cannot record the reloaded slices: \(error)")
        }
    }

    /// Starts the journal's periodic flushing on `clock`.
    func start<C: Clock>(clock: C) where C.Duration == Duration {
        journal?.startFlushing(on: clock)
    }

    /// Closes the journal, with a final snapshot.
    func closeJournal(finalState: JSON) async {
        await journal?.close(finalState: finalState)
    }

    /// Releases the data directory's lock: another bus may open it now.
    func release() {
        lock.withLock { $0 = nil }
    }
}
