/// Opens connections to gpsd; the seam where tests script a connection without a socket.
protocol GPSDTransport: Sendable {
    /// Starts connecting to `endpoint` and returns at once; reports arrive through `events`.
    /// Reading stops while `shouldRead` answers `false` (asked after each chunk) until
    /// ``GPSDConnection/resumeReading()``.
    func open(
        _ endpoint: GPSDEndpoint, options: LineSocket.Options,
        events: @escaping @Sendable (LineSocketEvent) -> Void,
        shouldRead: @escaping @Sendable () -> Bool
    ) -> any GPSDConnection
}

/// An open (or opening) connection.
protocol GPSDConnection: Sendable {
    /// Writes without blocking; `false` when the bytes could not be written.
    func send(_ bytes: [UInt8]) -> Bool
    /// Closes the connection; no reports follow.
    func close()
    /// Asks `shouldRead` again: the consumer caught up after reading was paused.
    func resumeReading()
}

extension LineSocket: GPSDConnection {}

/// The real transport: POSIX sockets read on a dedicated thread.
struct SocketTransport: GPSDTransport {
    func open(
        _ endpoint: GPSDEndpoint, options: LineSocket.Options,
        events: @escaping @Sendable (LineSocketEvent) -> Void,
        shouldRead: @escaping @Sendable () -> Bool
    ) -> any GPSDConnection {
        LineSocket.open(endpoint, options: options, events: events, shouldRead: shouldRead)
    }
}
