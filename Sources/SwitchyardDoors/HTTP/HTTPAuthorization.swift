/// Who may use the HTTP server: with a token configured, a request must carry it as
/// `Authorization: Bearer TOKEN`, as the `switchyard_token` cookie, or once as `?token=TOKEN`
/// (a browser opening the dashboard), which sets that cookie (HttpOnly, SameSite=Strict).
struct HTTPAuthorization: Sendable, Hashable {
    /// What a request's credentials decide.
    enum Decision: Sendable, Hashable {
        /// Serve it.
        case allowed
        /// Serve it and set the cookie (`Set-Cookie` value) so the token need not be sent again.
        case allowedSettingCookie(String)
        /// Refuse it with 401; the message says how to authenticate.
        case denied(String)
    }

    /// The name of the cookie that carries the token.
    static let cookieName = "switchyard_token"

    /// The token; `nil` lets every request in.
    let token: String?

    /// What `request` may do.
    func decide(_ request: HTTPRequest) -> Decision {
        guard let token else { return .allowed }
        if let authorization = request.header("authorization") {
            let parts = authorization.split(separator: " ", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "bearer", Self.same(String(parts[1]).trimmingSpaces, token) { return .allowed }
            return .denied("the Authorization header does not carry the bus's token (use Authorization: Bearer TOKEN)")
        }
        if let offered = request.query["token"] {
            guard Self.same(offered, token) else { return .denied("the token parameter is not the bus's token") }
            return .allowedSettingCookie("\(Self.cookieName)=\(token); Path=/; HttpOnly; SameSite=Strict")
        }
        if let cookies = request.header("cookie") {
            for cookie in cookies.split(whereSeparator: { $0 == ";" || $0 == "," }) {
                let pair = cookie.split(separator: "=", maxSplits: 1)
                if pair.count == 2, String(pair[0]).trimmingSpaces == Self.cookieName, Self.same(String(pair[1]).trimmingSpaces, token) {
                    return .allowed
                }
            }
        }
        return .denied("this bus needs its token: send Authorization: Bearer TOKEN, or open the page once with ?token=TOKEN")
    }

    /// Compares in time that depends on the lengths only, so the comparison does not tell an
    /// attacker how much of a guess was right.
    static func same(_ offered: String, _ token: String) -> Bool {
        let a = Array(offered.utf8), b = Array(token.utf8)
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        var text = Substring(self)
        while text.first == " " || text.first == "\t" { text = text.dropFirst() }
        while text.last == " " || text.last == "\t" { text = text.dropLast() }
        return String(text)
    }
}
