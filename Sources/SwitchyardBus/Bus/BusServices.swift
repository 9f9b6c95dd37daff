/// What a bus keeps in its data directory (`bus.dataDirectory` of its configuration).
///
/// A bus built with these takes the directory's lock, so two buses never share it. The doors
/// it serves (the control socket, HTTP) are ``BusService``s given beside these.
public struct BusServices: Sendable, Hashable {
    /// Journal every reduced action and restore the state from the journal on start.
    /// Default: `true`.
    public var journal: Bool
    /// Restore a journal written by a bus with other state slices (dropping the slices this
    /// bus lacks, starting its new ones empty) instead of refusing it; see ``JournalError``.
    /// For one start after a deliberate change of the plugin set. Default: `false`.
    public var acceptsSliceChanges: Bool
    /// Hears how far restoring the journal on start has got (phase `restoring`), for a
    /// progress line. Default: `nil`.
    public var restoreProgress: JournalProgress?

    /// Creates the choice of services; each parameter defaults as documented on its property.
    public init(journal: Bool = true, acceptsSliceChanges: Bool = false, restoreProgress: JournalProgress? = nil) {
        self.restoreProgress = restoreProgress
        self.journal = journal
        self.acceptsSliceChanges = acceptsSliceChanges
    }

    /// The control socket's path for a data directory.
    public static func socketPath(dataDirectory: String) -> String {
        dataDirectory + "/control.sock"
    }
}
