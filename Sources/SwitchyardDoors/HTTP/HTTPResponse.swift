/// A response the server sends: a status, header fields and a body framed by
/// `Content-Length` (or, for an event stream, the head alone, the stream following).
struct HTTPResponse: Sendable, Hashable {
    var status: Int
    /// Header fields besides `Content-Length` and `Connection`, which ``head(keepAlive:)`` adds.
    var headers: [String: String]
    var body: [UInt8]

    init(status: Int, headers: [String: String] = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A JSON body (`application/json`), a newline at its end for people using curl.
    static func json(_ value: JSON, status: Int = 200) -> HTTPResponse {
        var bytes: [UInt8] = []
        value.serialize(into: &bytes)
        bytes.append(UInt8(ascii: "\n"))
        return HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: bytes)
    }

    /// A plain-text body, a newline at its end.
    static func text(_ text: String, status: Int = 200, contentType: String = "text/plain; charset=utf-8") -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": contentType], body: Array((text + (text.hasSuffix("\n") ? "" : "\n")).utf8))
    }

    /// An error as JSON, in the control protocol's shape:
    /// `{"ok":false,"error":{"code":"not-found","message":"..."}}`.
    static func error(status: Int, code: String, _ message: String) -> HTTPResponse {
        json(["ok": false, "error": ["code": .string(code), "message": .string(message)]], status: status)
    }

    /// A refused request: the status and its message as plain text.
    static func failure(_ failure: HTTPFailure) -> HTTPResponse {
        text("\(failure.status) \(reason(failure.status)): \(failure.message)", status: failure.status)
    }

    /// The status line and header fields; `bodyLength` `nil` leaves `Content-Length` out (an
    /// event stream, delimited by the connection's close).
    func head(keepAlive: Bool, bodyLength: Int?) -> [UInt8] {
        var text = "HTTP/1.1 \(status) \(Self.reason(status))\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { text += "\(name): \(value)\r\n" }
        if let bodyLength { text += "Content-Length: \(bodyLength)\r\n" }
        text += keepAlive ? "\r\n" : "Connection: close\r\n\r\n"
        return Array(text.utf8)
    }

    /// The whole response; a response to `HEAD` has the head only.
    func serialized(keepAlive: Bool, headOnly: Bool = false) -> [UInt8] {
        var bytes = head(keepAlive: keepAlive, bodyLength: body.count)
        if !headOnly { bytes.append(contentsOf: body) }
        return bytes
    }

    /// The reason phrase of a status code; "Status NNN" for an unregistered one.
    static func reason(_ status: Int) -> String {
        HTTPReasonPhrase.of(status) ?? "Status \(status)"
    }
}
