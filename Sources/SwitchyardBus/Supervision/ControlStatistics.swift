/// Counters of the control server, as `switchyard stats` shows them.
public struct ControlStatistics: Sendable, Hashable {
    /// The socket path.
    public var socketPath: String
    /// Connections open now.
    public var clients = 0
    /// Of those, connections watching.
    public var watchers = 0
    /// Connections accepted since the bus started.
    public var accepted: UInt64 = 0
    /// Connections refused: at the client limit, out of file descriptors, or from a user the
    /// bus does not serve.
    public var refused: UInt64 = 0
    /// Connections closed after the idle timeout without a request.
    public var idleClosed: UInt64 = 0
    /// Requests handled.
    public var requests: UInt64 = 0
    /// Error replies sent.
    public var errors: UInt64 = 0
    /// Watchers dropped because they fell behind.
    public var watchersDropped: UInt64 = 0

    /// Counters at zero for the socket at `socketPath`.
    public init(socketPath: String) {
        self.socketPath = socketPath
    }
}
