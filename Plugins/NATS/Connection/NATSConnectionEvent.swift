/// What a connection reports to the bridge, in order.
enum NATSConnectionEvent: Sendable, Hashable {
    /// The handshake finished: the server accepted `CONNECT` and answered the first `PING`.
    case connected(NATSServerInfo)
    /// The server sent a new `INFO` (its limits may have changed).
    case infoChanged(NATSServerInfo)
    /// A message for one of the connection's subscriptions.
    case message(NATSMessage)
    /// An `-ERR` that leaves the connection open, such as a permissions violation.
    case serverError(String)
    /// The output buffer emptied after it had grown past its high-water mark.
    case drained
    /// The server answered the ping ``NATSConnection/flush()`` sent: it has processed
    /// everything written before it (subscriptions included).
    case flushed
    /// The connection ended; always the last event.
    case closed(NATSConnectionError)
}
