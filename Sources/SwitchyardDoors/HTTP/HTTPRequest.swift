/// One parsed HTTP/1.x request: what the server's routes see.
///
/// Header names are kept lower-cased (they are case-insensitive); a header sent twice keeps
/// both values in order, and ``header(_:)`` joins them with commas as RFC 9110 allows for
/// list-valued fields.
struct HTTPRequest: Sendable, Hashable {
    /// The method token as sent (`GET`, `POST`, …); methods are case-sensitive.
    var method: String
    /// The request target as sent: the path and the query (`/api/state?path=a.b`).
    var target: String
    /// The minor version: 0 for HTTP/1.0, 1 for HTTP/1.1.
    var minorVersion: Int
    /// The header fields in order, names lower-cased.
    var headers: [(name: String, value: String)]
    /// The body: exactly the `Content-Length` bytes (empty without one).
    var body: [UInt8]

    init(method: String, target: String, minorVersion: Int = 1, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.method = method
        self.target = target
        self.minorVersion = minorVersion
        self.headers = headers
        self.body = body
    }

    static func == (lhs: HTTPRequest, rhs: HTTPRequest) -> Bool {
        lhs.method == rhs.method && lhs.target == rhs.target && lhs.minorVersion == rhs.minorVersion
            && lhs.headers.map(\.name) == rhs.headers.map(\.name) && lhs.headers.map(\.value) == rhs.headers.map(\.value)
            && lhs.body == rhs.body
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(method)
        hasher.combine(target)
        hasher.combine(body)
    }

    /// The values of header `name` (any case) joined with `, `; `nil` when it was not sent.
    func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        let values = headers.filter { $0.name == wanted }.map(\.value)
        return values.isEmpty ? nil : values.joined(separator: ", ")
    }

    /// The path part of the target, percent-decoded; `nil` when the encoding is broken.
    var path: String? {
        let raw = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        return PercentEncoding.decode(raw)
    }

    /// The query parameters, decoded (`+` is a space); a parameter without `=` has the value
    /// `""`. Broken percent-encoding drops the parameter.
    var query: [String: String] {
        guard let mark = target.firstIndex(of: "?") else { return [:] }
        var result: [String: String] = [:]
        for pair in target[target.index(after: mark)...].split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = PercentEncoding.decode(parts[0], plusIsSpace: true),
                  let value = PercentEncoding.decode(parts.count > 1 ? parts[1] : "", plusIsSpace: true)
            else { continue }
            if result[name] == nil { result[name] = value }
        }
        return result
    }

    /// Whether the connection stays open after the response: HTTP/1.1 unless `Connection:
    /// close`; HTTP/1.0 only with `Connection: keep-alive`.
    var keepsAlive: Bool {
        let tokens = (header("connection") ?? "").lowercased().split(separator: ",").map { $0.trimmingSpaces() }
        if minorVersion == 0 { return tokens.contains("keep-alive") }
        return !tokens.contains("close")
    }
}
