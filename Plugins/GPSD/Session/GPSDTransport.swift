/// Opens connections to gpsd; the seam where tests script a connection without a socket.
protocol GPSDTransport: Sendable {
    /// Starts connecting to `endpoint` and returns at once; reports arrive through `events`.
    func open(
        _ endpoint: GPSDEndpoint, options: LineSocket.Options,
        events: @escaping @Sendable (LineSocketEvent) -> Void
    ) -> any GPSDConnection
}

/// An open (or opening) connection.
protocol GPSDConnection: Sendable {
    /// Writes without blocking; `false` when the bytes could not be written.
    func send(_ bytes: [UInt8]) -> Bool
    /// Closes the connection; no reports follow.
    func close()
}

extension LineSocket: GPSDConnection {}

/// The real transport: POSIX sockets read on a dedicated thread.
struct SocketTransport: GPSDTransport {
    func open(
        _ endpoint: GPSDEndpoint, options: LineSocket.Options,
        events: @escaping @Sendable (LineSocketEvent) -> Void
    ) -> any GPSDConnection {
        LineSocket.open(endpoint, options: options, events: events)
    }
}
