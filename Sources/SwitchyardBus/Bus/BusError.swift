/// Errors thrown by ``Bus/run()`` and ``Bus/reload(_:)``.
public struct BusError: Error, Sendable, Hashable, CustomStringConvertible {
    private enum Code: Sendable, Hashable {
        case alreadyStarted
        case pluginNotReady(plugin: String, timeout: Duration)
        case controlSocket(path: String, reason: String)
        case notRunning
        case reloadInProgress
        case journalFailed(JournalError)
        case httpServer(listen: String, reason: String)
    }

    private let code: Code

    private init(_ code: Code) {
        self.code = code
    }

    /// `run()` was called on a bus that already ran; a bus runs once.
    public static let alreadyStarted = BusError(.alreadyStarted)

    /// A plugin with signalled readiness did not report ready within its timeout.
    public static func pluginNotReady(_ plugin: String, timeout: Duration) -> BusError {
        BusError(.pluginNotReady(plugin: plugin, timeout: timeout))
    }

    /// The control socket could not be opened: a live bus listens on it, or a system call failed.
    public static func controlSocket(_ path: String, reason: String) -> BusError {
        BusError(.controlSocket(path: path, reason: reason))
    }

    /// The HTTP server (`bus.http`) could not listen: the port is in use, or a system call failed.
    public static func httpServer(_ listen: String, reason: String) -> BusError {
        BusError(.httpServer(listen: listen, reason: reason))
    }

    /// A reload was asked of a bus that is not running (still starting, or stopping).
    public static let notRunning = BusError(.notRunning)

    /// A reload was asked while another was in progress.
    public static let reloadInProgress = BusError(.reloadInProgress)

    /// The journal could not write or flush (a full disk, an I/O error): the bus stopped, and
    /// no action from the failed batch on was acknowledged.
    public static func journalFailed(_ error: JournalError) -> BusError {
        BusError(.journalFailed(error))
    }

    /// What went wrong, in one sentence that names the file, path or plugin concerned.
    public var description: String {
        switch code {
        case .alreadyStarted:
            return "the bus has already been started; a bus runs once"
        case .pluginNotReady(let plugin, let timeout):
            return "plugin \"\(plugin)\" did not report ready within \(timeout)"
        case .controlSocket(let path, let reason):
            return "cannot open the control socket \(path): \(reason)"
        case .notRunning:
            return "the bus is not running (it is starting or stopping)"
        case .reloadInProgress:
            return "another reload is in progress"
        case .journalFailed(let error):
            return "the journal failed, so the bus stopped: \(error)"
        case .httpServer(let listen, let reason):
            return "cannot serve HTTP on \(listen) (bus.http.listen): \(reason)"
        }
    }
}
