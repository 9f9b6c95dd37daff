/// The HTTP server's counters, shown by `stats` (as `http`) and `/metrics`.
public struct HTTPStatistics: Sendable, Hashable {
    /// Where the server listens (`127.0.0.1:8080`).
    public var listen: String
    /// Connections accepted.
    public var accepted = 0
    /// Connections refused with 503 because the limit was reached (or descriptors ran out).
    public var refused = 0
    /// Connections open now.
    public var connections = 0
    /// Requests answered, by status code.
    public var responses: [Int: Int] = [:]
    /// Event streams open now.
    public var streams = 0
    /// Event-stream clients dropped because they did not keep up.
    public var streamsDropped = 0
    /// Connections closed because a request took longer than the request timeout.
    public var timedOut = 0
    /// Idle connections closed to make room for a new client when every slot was taken.
    public var idleReclaimed = 0
    /// The configured map tile URL template (`bus.http.tiles`), which the dashboard reads
    /// here; `nil` when none is set.
    public var tiles: String?

    /// Creates zeroed counters for a server listening at `listen`.
    public init(listen: String) {
        self.listen = listen
    }

    /// The counters as the `http` object of a `stats` reply.
    public var json: JSON {
        var object: [String: JSON] = [
            "listen": .string(listen),
            "accepted": .integer(Int64(accepted)),
            "refused": .integer(Int64(refused)),
            "connections": .integer(Int64(connections)),
            "responses": .object(Dictionary(uniqueKeysWithValues: responses.map { (String($0.key), JSON.integer(Int64($0.value))) })),
            "streams": .integer(Int64(streams)),
            "streamsDropped": .integer(Int64(streamsDropped)),
            "timedOut": .integer(Int64(timedOut)),
            "idleReclaimed": .integer(Int64(idleReclaimed)),
        ]
        if let tiles { object["tiles"] = .string(tiles) }
        return .object(object)
    }
}
