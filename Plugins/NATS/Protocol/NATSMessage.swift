/// A message the server delivered (`MSG` or `HMSG`).
///
/// A class, so handing it on copies one reference: a message passes from the parser through
/// the server operation, the connection's event queue and the bridge machine's delivery to the
/// decoder, and as a struct each of those copies retained and released its six fields.
final class NATSMessage: Sendable, Hashable {
    /// The subject it was published to.
    let subject: String
    /// The id of the subscription that matched it.
    let sid: String
    /// Where a reply goes; for JetStream deliveries, the subject that acknowledges it.
    let replyTo: String?
    /// The headers of an `HMSG`; `nil` for a `MSG`.
    let headers: NATSHeaders?
    /// The payload bytes.
    let payload: [UInt8]
    /// Why the header block of an `HMSG` could not be read (then ``headers`` is `nil`): a
    /// bad header is the publisher's fault and must not end the connection.
    let headerProblem: NATSProtocolError?

    /// Creates a message.
    init(
        subject: String,
        sid: String,
        replyTo: String? = nil,
        headers: NATSHeaders? = nil,
        payload: [UInt8] = [],
        headerProblem: NATSProtocolError? = nil
    ) {
        self.subject = subject
        self.sid = sid
        self.replyTo = replyTo
        self.headers = headers
        self.payload = payload
        self.headerProblem = headerProblem
    }

    /// The status code of a status message (no responders, an expired pull request); `nil`
    /// for an ordinary message.
    var status: Int? { headers?.status }

    /// Two messages are equal when every field is.
    static func == (left: NATSMessage, right: NATSMessage) -> Bool {
        left === right
            || (left.subject == right.subject && left.sid == right.sid && left.replyTo == right.replyTo
                && left.headers == right.headers && left.payload == right.payload && left.headerProblem == right.headerProblem)
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(subject)
        hasher.combine(sid)
        hasher.combine(replyTo)
        hasher.combine(headers)
        hasher.combine(payload)
        hasher.combine(headerProblem)
    }
}

/// One operation a server sends.
enum NATSServerOperation: Sendable, Hashable {
    /// `INFO {...}`: the server's description, at connect and when it changes.
    case info(NATSServerInfo)
    /// `MSG` or `HMSG`: a message for one of the client's subscriptions.
    case message(NATSMessage)
    /// `PING`: the server checks the client is alive; answer with `PONG`.
    case ping
    /// `PONG`: the answer to the client's `PING`.
    case pong
    /// `+OK`: an acknowledgement in verbose mode.
    case ok
    /// `-ERR 'message'`: an error; most close the connection.
    case error(String)
}
