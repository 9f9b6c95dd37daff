/// Where gpsd listens: a TCP host and port, or a Unix socket path.
enum GPSDEndpoint: Sendable, Hashable, CustomStringConvertible {
    /// A TCP host name or address and a port.
    case tcp(host: String, port: Int)
    /// A Unix stream socket, such as `/run/gpsd.sock`.
    case unix(path: String)

    /// gpsd's defaults: `127.0.0.1`, port 2947.
    static let standard = GPSDEndpoint.tcp(host: "127.0.0.1", port: 2947)

    /// `host:port` (IPv6 literals bracketed) or the socket path, as written in logs and status.
    var description: String {
        switch self {
        case .tcp(let host, let port): host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        case .unix(let path): path
        }
    }
}
