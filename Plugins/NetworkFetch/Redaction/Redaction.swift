import FoundationEssentials
import SwitchyardBus

/// Keeps secrets out of everything the plugin logs or emits.
///
/// Header values whose names look like credentials (`Authorization`, `X-API-Key`, …), query
/// values whose names look like keys or tokens (`key`, `api_key`, `access_token`, …) and the
/// user-info part of a URL are replaced by ``mask``. Free text (an error message) is scrubbed
/// of the concrete secret values a request carried, in case a lower layer echoed one.
enum Redaction {
    /// What a secret is replaced by.
    static let mask = "***"

    private static let sensitiveFragments = ["key", "token", "secret", "password", "passwd", "auth", "session",
                                             "signature", "credential", "cookie"]
    private static let sensitiveNames: Set<String> = ["sig", "pwd", "pass"]
    /// Scrubbing shorter values would mangle messages more than it protects.
    private static let shortestScrubbedSecret = 4

    /// Whether a header named `name` carries a credential.
    static func isSensitiveHeader(_ name: String) -> Bool {
        isSensitiveName(name)
    }

    /// Whether a query parameter named `name` (already percent-decoded) carries a credential.
    static func isSensitiveQueryName(_ name: String) -> Bool {
        isSensitiveName(name)
    }

    /// `text` with the user info and the values of credential-like query parameters masked:
    /// `https://u:p@h/x?key=abc&q=1` becomes `https://***@h/x?key=***&q=1`. Text that is not a
    /// URL is masked where it has the shape of one.
    static func redactedURL(_ text: String) -> String {
        var rest = Substring(text)
        var output = ""
        if let schemeEnd = rest.firstRange(of: "://") {
            output += rest[..<schemeEnd.upperBound]
            rest = rest[schemeEnd.upperBound...]
            let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
            let authority = rest[..<authorityEnd]
            if let at = authority.lastIndex(of: "@") {
                output += mask + authority[at...]
            } else {
                output += authority
            }
            rest = rest[authorityEnd...]
        }
        guard let queryStart = rest.firstIndex(of: "?") else { return output + rest }
        output += rest[...queryStart]
        let afterQuestionMark = rest[rest.index(after: queryStart)...]
        let fragmentStart = afterQuestionMark.firstIndex(of: "#") ?? afterQuestionMark.endIndex
        let query = afterQuestionMark[..<fragmentStart]
        let pairs = query.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
            let name = pair[..<equals]
            let decoded = PercentEncoding.decode(name) ?? String(name)
            return isSensitiveQueryName(decoded) ? "\(name)=\(mask)" : String(pair)
        }
        return output + pairs.joined(separator: "&") + afterQuestionMark[fragmentStart...]
    }

    /// The concrete secret values `request` carries: credential header values (and the
    /// credential after an `Authorization` scheme such as `Bearer`), credential-like query
    /// values (raw and decoded) and the URL's user info.
    static func secrets(of request: PreparedRequest) -> [String] {
        var secrets: [String] = []
        for header in request.headers where isSensitiveHeader(header.name) {
            secrets.append(header.value)
            if let space = header.value.firstIndex(of: " ") {
                secrets.append(String(header.value[header.value.index(after: space)...]))
            }
        }
        if let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false) {
            for item in components.queryItems ?? [] where isSensitiveQueryName(item.name) {
                if let value = item.value { secrets.append(value) }
            }
            for item in components.percentEncodedQueryItems ?? [] {
                guard isSensitiveQueryName(PercentEncoding.decode(item.name) ?? item.name), let value = item.value else { continue }
                secrets.append(value)
            }
            if let user = components.percentEncodedUser { secrets.append(user) }
            if let password = components.percentEncodedPassword { secrets.append(password) }
            if let user = components.user { secrets.append(user) }
            if let password = components.password { secrets.append(password) }
        }
        let usable = secrets.map { $0.trimmingSpaces() }.filter { $0.count >= shortestScrubbedSecret }
        return Array(Set(usable)).sorted { $0.count > $1.count }
    }

    /// `text` with every occurrence of each secret replaced by ``mask``; longer secrets are
    /// replaced first so one containing another is masked whole.
    static func scrub(_ text: String, secrets: [String]) -> String {
        var output = text
        for secret in secrets.sorted(by: { $0.count > $1.count }) where secret.count >= shortestScrubbedSecret {
            output = output.replacing(secret, with: mask)
        }
        return output
    }

    private static func isSensitiveName(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return sensitiveNames.contains(lowered) || sensitiveFragments.contains { lowered.contains($0) }
    }
}
