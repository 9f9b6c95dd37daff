import SwitchyardBus

/// What a server says about itself in `INFO`: who it is and what it allows.
struct NATSServerInfo: Sendable, Hashable {
    /// The server's unique id.
    var serverID: String
    /// The server's name (its id unless configured).
    var serverName: String
    /// The server's version, such as `2.9.10`.
    var version: String
    /// The largest message (headers and payload) the server accepts, in bytes; 1 MiB unless
    /// the server says otherwise.
    var maxPayload: Int
    /// Whether the server supports message headers (HPUB/HMSG).
    var headers: Bool
    /// Whether JetStream is enabled for this client.
    var jetStream: Bool
    /// Whether the server requires credentials.
    var authRequired: Bool
    /// Whether the server requires TLS, which this client does not speak.
    var tlsRequired: Bool
    /// Whether the server is shutting down and asks clients to move elsewhere.
    var lameDuckMode: Bool

    /// The server's default `max_payload`.
    static let defaultMaxPayload = 1 << 20

    /// Creates information; every parameter defaults to what a plain local server reports.
    init(
        serverID: String = "",
        serverName: String = "",
        version: String = "",
        maxPayload: Int = NATSServerInfo.defaultMaxPayload,
        headers: Bool = true,
        jetStream: Bool = false,
        authRequired: Bool = false,
        tlsRequired: Bool = false,
        lameDuckMode: Bool = false
    ) {
        self.serverID = serverID
        self.serverName = serverName
        self.version = version
        self.maxPayload = maxPayload
        self.headers = headers
        self.jetStream = jetStream
        self.authRequired = authRequired
        self.tlsRequired = tlsRequired
        self.lameDuckMode = lameDuckMode
    }

    /// Reads the JSON object after `INFO`; missing members take the defaults above, except
    /// `headers`, which a server that does not mention it does not support.
    /// - Throws: ``NATSProtocolError`` when the text is not a JSON object.
    init(parsing bytes: ArraySlice<UInt8>) throws(NATSProtocolError) {
        let json: JSON
        do {
            json = try JSON(parsing: bytes)
        } catch {
            throw .malformedInfo(error.description)
        }
        guard case .object(let members) = json else { throw .malformedInfo("expected a JSON object, got \(json.kindDescription)") }
        let serverID = members["server_id"]?.stringValue ?? ""
        self.init(
            serverID: serverID,
            serverName: members["server_name"]?.stringValue ?? serverID,
            version: members["version"]?.stringValue ?? "",
            maxPayload: members["max_payload"]?.intValue.flatMap { $0 > 0 ? $0 : nil } ?? Self.defaultMaxPayload,
            headers: members["headers"]?.boolValue ?? false,
            jetStream: members["jetstream"]?.boolValue ?? false,
            authRequired: members["auth_required"]?.boolValue ?? false,
            tlsRequired: members["tls_required"]?.boolValue ?? false,
            lameDuckMode: members["ldm"]?.boolValue ?? false
        )
    }
}
