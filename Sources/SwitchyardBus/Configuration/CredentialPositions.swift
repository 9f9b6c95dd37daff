/// Where a value a configuration takes from the environment is a credential, and so secret
/// (see ``Secrets``); everywhere else a `${VAR}` value (a port, a host, a path, a device, a URL
/// without credentials) is ordinary text the bus shows as it is.
///
/// A reference is a credential when it is marked (`${secret:NAME}`), when its string is the
/// value of a key named like a credential (`password`, `token`, `user`, `Authorization`,
/// `Cookie`, `X-API-Key`, … — at any depth, so request headers count), or when it lies in a
/// URL's user info or in the value of a query parameter named like a key or token
/// (`?api_key=${KEY}`). A variable whose value is itself such a URL (`NATS_URL` =
/// `nats://u:pw@host`) keeps only those parts secret.
package enum CredentialPositions {
    /// What a configuration's strings hold in credential positions.
    package struct Found: Sendable, Hashable {
        /// The variables whose whole values are credentials: shown as `${NAME}`.
        package var names: Set<String> = []
        /// Credentials found inside a variable's value (a URL's user info or key): shown as
        /// ``Secrets/mask``.
        package var values: Set<String> = []

        /// Nothing found.
        package init() {}

        /// Adds what `other` found.
        package mutating func add(_ other: Found) {
            names.formUnion(other.names)
            values.formUnion(other.values)
        }
    }

    /// The credentials of one configuration string as written (`template`), found under the
    /// object key `key`; `environment` gives the values of the variables it references.
    static func find(in template: String, key: String?, environment: [String: String]) -> Found {
        var found = Found()
        let wholeStringIsCredential = key.map(isCredentialName) ?? false
        for reference in EnvironmentExpander.markedReferences(in: template)
        where reference.isMarkedSecret || wholeStringIsCredential {
            found.names.insert(reference.name)
        }
        for span in credentialSpans(inURL: template) {
            found.names.formUnion(EnvironmentExpander.references(in: String(span)))
        }
        for name in EnvironmentExpander.references(in: template) where !found.names.contains(name) {
            guard let value = environment[name] else { continue }
            found.values.formUnion(credentialSpans(inURL: value).map(String.init))
        }
        return found
    }

    /// Whether a key, header or query parameter named `name` carries a credential.
    static func isCredentialName(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return credentialNames.contains(lowered) || credentialFragments.contains { lowered.contains($0) }
    }

    private static let credentialNames: Set<String> = ["user", "username", "pass", "pwd", "key", "sig"]
    private static let credentialFragments = ["password", "passwd", "token", "secret", "auth", "cookie", "apikey",
                                              "api-key", "api_key", "credential", "signature", "session"]

    /// The user info of the URL in `text` (`u:pw` in `https://u:pw@host/`) and the values of its
    /// query parameters named like credentials; none when `text` holds no `scheme://`.
    static func credentialSpans(inURL text: String) -> [Substring] {
        guard let schemeEnd = text.firstRange(of: "://") else { return [] }
        let rest = text[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        var spans: [Substring] = []
        if let at = rest[..<authorityEnd].lastIndex(of: "@") { spans.append(rest[..<at]) }
        guard let questionMark = rest[authorityEnd...].firstIndex(of: "?") else { return spans }
        let query = rest[rest.index(after: questionMark)...].prefix { $0 != "#" }
        for pair in query.split(separator: "&") {
            guard let equals = pair.firstIndex(of: "=") else { continue }
            let name = pair[..<equals]
            if isCredentialName(PercentEncoding.decode(name) ?? String(name)) {
                spans.append(pair[pair.index(after: equals)...])
            }
        }
        return spans
    }
}
