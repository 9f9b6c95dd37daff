import Synchronization

/// A bus's data directory at run time: its lock, its journal and its control server.
final class BusStorage: Sendable {
    let dataDirectory: String
    let services: BusServices
    let journal: Journal?
    let control: ControlSettings
    let http: HTTPSettings?
    private let lock: Mutex<DataDirectoryLock?>
    private let server = Mutex<ControlServer?>(nil)
    private let httpServer = Mutex<HTTPServer?>(nil)

    /// What opening found: the state to start from and the first sequence number to stamp.
    struct Opened: Sendable {
        var storage: BusStorage
        var state: JSON
        var firstSequence: UInt64
    }

    private init(dataDirectory: String, services: BusServices, journal: Journal?, control: ControlSettings, http: HTTPSettings?, lock: DataDirectoryLock) {
        self.dataDirectory = dataDirectory
        self.control = control
        self.http = http
        self.services = services
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
        let storage = BusStorage(dataDirectory: settings.dataDirectory, services: services, journal: journal, control: settings.control, http: settings.http, lock: lock)
        return Opened(storage: storage, state: state, firstSequence: firstSequence)
    }

    var socketPath: String { BusServices.socketPath(dataDirectory: dataDirectory) }

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

    /// Starts the journal's flushing, the control server and, when configured, the HTTP server.
    /// - Throws: ``BusError/controlSocket(_:reason:)`` when the socket cannot be opened;
    ///   ``BusError/httpServer(_:reason:)`` when the HTTP address cannot be listened on.
    func start<C: Clock>(backend: ControlBackend, http httpBackend: @autoclosure () -> HTTPBackend, clock: C, log: LogSink) throws(BusError) where C.Duration == Duration {
        journal?.startFlushing(on: clock)
        if let http {
            do {
                let started = try HTTPServer.start(settings: http, limits: HTTPLimits(settings: http), backend: httpBackend(), log: log)
                httpServer.withLock { $0 = started }
            } catch {
                throw .httpServer(http.authority, reason: error.description)
            }
        }
        guard services.controlSocket else { return }
        do {
            var limits = services.controlLimits
            limits.allowedUserIDs.formUnion(control.allowedUserIDs)
            limits.idleTimeout = control.idleTimeout
            let started = try ControlServer.start(path: socketPath, limits: limits, backend: backend, log: log)
            server.withLock { $0 = started }
        } catch {
            throw .controlSocket(socketPath, reason: error.description)
        }
    }

    /// Closes the journal (with a final snapshot), lets the control server flush for up to
    /// `grace`, and releases the data directory.
    func stop(finalState: JSON, grace: Duration) async {
        await journal?.close(finalState: finalState)
        let server = server.withLock { $0 }
        await server?.shutDown(grace: grace)
        let httpServer = httpServer.withLock { $0 }
        await httpServer?.shutDown(grace: grace)
        lock.withLock { $0 = nil }
    }

    var controlStatistics: ControlStatistics? { server.withLock { $0?.statistics } }

    /// The HTTP server's counters; `nil` when it does not run.
    var httpStatistics: HTTPStatistics? { httpServer.withLock { $0?.statistics } }

    /// The HTTP server's root URL (`http://127.0.0.1:8080/`); `nil` when it does not run.
    var httpURL: String? { httpServer.withLock { $0?.url } }
}
