import FoundationEssentials

/// What a redirect response leads to: the next request, or why it is not followed.
///
/// Pure, so the rules are tested without a network: http and https targets only, at most
/// `maxRedirects` hops, the method and body kept by 307 and 308, a `GET` without body after
/// 303 (and after 301 or 302 answering a `POST`, as browsers and URLSession do), and
/// credential headers dropped once a hop leaves the original scheme, host and port, so a token
/// meant for one server is never handed to another.
struct Redirection: Sendable, Hashable {
    /// Hops followed so far.
    private(set) var count = 0
    let maxRedirects: Int
    /// The request as first sent, whose origin credentials belong to.
    let original: PreparedRequest

    init(from original: PreparedRequest, maxRedirects: Int) {
        self.original = original
        self.maxRedirects = maxRedirects
    }

    /// Whether a response of `status` is a redirect this follows (given a `Location`).
    static func isRedirect(_ status: Int) -> Bool {
        [301, 302, 303, 307, 308].contains(status)
    }

    /// The request to send after `request` was answered with redirect `status` to `location`
    /// (absolute, as resolved against the request's URL), or the ``Refusal`` saying why it is not followed.
    mutating func follow(_ request: PreparedRequest, status: Int, to location: URL) -> Result<PreparedRequest, Refusal> {
        count += 1
        let scheme = location.scheme?.lowercased()
        guard scheme == "http" || scheme == "https" else {
            return .failure(Refusal(status: status, reason: "it leads to a \(scheme ?? "schemeless") URL"))
        }
        guard count <= maxRedirects else {
            return .failure(Refusal(status: status, reason: "more than \(maxRedirects) redirects"))
        }
        var next = request
        next.url = location
        let becomesGet = status == 303 ? request.method != "HEAD" : (status == 301 || status == 302) && request.method == "POST"
        if becomesGet {
            next.method = "GET"
            next.body = nil
            next.headers.removeAll { ["content-type", "content-length"].contains($0.name.lowercased()) }
        }
        if !Self.sameOrigin(location, original.url) {
            next.headers.removeAll { Redaction.isSensitiveHeader($0.name) }
        }
        return .success(next)
    }

    /// A redirect not followed: the status that asked for it and why.
    struct Refusal: Error, Sendable, Hashable {
        var status: Int
        var reason: String
    }

    private static func sameOrigin(_ first: URL, _ second: URL) -> Bool {
        first.scheme?.lowercased() == second.scheme?.lowercased() && first.host?.lowercased() == second.host?.lowercased()
            && effectivePort(first) == effectivePort(second)
    }

    private static func effectivePort(_ url: URL) -> Int? {
        url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80)
    }
}
