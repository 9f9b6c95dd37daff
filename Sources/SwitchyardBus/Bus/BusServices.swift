/// What a bus keeps in its data directory (`bus.dataDirectory` of its configuration).
///
/// A bus built with any service takes the directory's lock, so two buses never share it.
public struct BusServices: Sendable, Hashable {
    /// Journal every reduced action and restore the state from the journal on start.
    /// Default: `true`.
    public var journal: Bool
    /// Serve the control protocol on `<dataDirectory>/control.sock`. Default: `true`.
    public var controlSocket: Bool
    /// Restore a journal written by a bus with other state slices (dropping the slices this
    /// bus lacks, starting its new ones empty) instead of refusing it; see ``JournalError``.
    /// For one start after a deliberate change of the plugin set. Default: `false`.
    public var acceptsSliceChanges: Bool
    /// The control server's limits. Default: ``ControlLimits/init(maximumLineLength:maximumClients:watcherBufferBytes:watcherBufferActions:)``.
    public var controlLimits: ControlLimits
    /// The go-aheads of a step-by-step replay, given by the control socket's `step` requests.
    /// Default: `nil` (a `step` request is answered `not-stepping`).
    public var replaySteps: ReplaySteps?
    /// Hears how far restoring the journal on start has got (phase `restoring`), for a
    /// progress line. Default: `nil`.
    public var restoreProgress: JournalProgress?

    /// Creates the choice of services; each parameter defaults as documented on its property.
    public init(journal: Bool = true, controlSocket: Bool = true, controlLimits: ControlLimits = ControlLimits(),
                acceptsSliceChanges: Bool = false, replaySteps: ReplaySteps? = nil, restoreProgress: JournalProgress? = nil) {
        self.restoreProgress = restoreProgress
        self.journal = journal
        self.controlSocket = controlSocket
        self.controlLimits = controlLimits
        self.acceptsSliceChanges = acceptsSliceChanges
        self.replaySteps = replaySteps
    }

    /// The control socket's path for a data directory.
    public static func socketPath(dataDirectory: String) -> String {
        dataDirectory + "/control.sock"
    }
}
