import SwitchyardBus

/// The mapping between action types and NATS subjects under a prefix: `gps/fix` ↔
/// `switchyard.gps.fix`.
///
/// Each `/`-separated segment of a type becomes one token. Action types may contain `.`,
/// which separates tokens in NATS, so inside a segment `.` is written `~` (a character no
/// action type contains): `gps/fix.v2` ↔ `switchyard.gps.fix~v2`. The mapping is one to one,
/// so a subject maps back to the type it came from.
public struct SubjectMapping: Sendable, Hashable {
    /// The subject tokens before the type, such as `switchyard` or `fleet.eu`.
    public let prefix: String
    private let prefixTokens: [Substring]

    /// The default prefix.
    public static let defaultPrefix = "switchyard"

    /// The mapping under the default prefix.
    public static let standard = SubjectMapping(unchecked: defaultPrefix)

    private init(unchecked prefix: String) {
        self.prefix = prefix
        prefixTokens = prefix.split(separator: ".", omittingEmptySubsequences: false)
    }

    /// Creates a mapping under `prefix`.
    /// - Throws: ``SubjectError`` when the prefix is not a literal subject.
    public init(prefix: String = SubjectMapping.defaultPrefix) throws(SubjectError) {
        if let problem = SubjectPattern.problem(with: prefix, wildcards: false) { throw SubjectError(description: problem) }
        self.prefix = prefix
        prefixTokens = prefix.split(separator: ".", omittingEmptySubsequences: false)
    }

    /// The subject for a valid action type.
    public func subject(for type: String) -> String {
        var subject = prefix
        for segment in type.split(separator: "/", omittingEmptySubsequences: false) {
            subject += "."
            subject += segment.replacing(".", with: "~")
        }
        return subject
    }

    /// The pattern that receives every action type `pattern` matches: `gps/*` ↔
    /// `switchyard.gps.>`, `*` ↔ `switchyard.>`.
    public func subjectPattern(for pattern: TypePattern) -> String {
        switch pattern.description {
        case "*": return prefix + ".>"
        case let text where text.hasSuffix("/*"): return prefix + "." + text.dropLast(2).replacing(".", with: "~") + ".>"
        case let text: return subject(for: text)
        }
    }

    /// The action type a subject under the prefix stands for.
    /// - Throws: ``SubjectError`` when the subject is outside the prefix, has fewer than two
    ///   tokens after it, or a token that is not a valid type segment.
    public func actionType(for subject: String) throws(SubjectError) -> String {
        let tokens = subject.split(separator: ".", omittingEmptySubsequences: false)
        guard tokens.count >= prefixTokens.count + 2, Array(tokens.prefix(prefixTokens.count)) == prefixTokens else {
            throw SubjectError(description: "the subject \"\(subject)\" is not \"\(prefix).DOMAIN.EVENT\"")
        }
        let segments = tokens.dropFirst(prefixTokens.count).map { $0.replacing("~", with: ".") }
        let type = segments.joined(separator: "/")
        guard ActionType.isValid(type) else {
            throw SubjectError(description: "the subject \"\(subject)\" does not name a valid action type (lower-case letters, digits, '-', '_' and '~' in each token)")
        }
        return type
    }

    /// Whether `pattern` only matches subjects under the prefix (`switchyard.gps.>` does,
    /// `>` and `other.>` do not).
    public func contains(_ pattern: SubjectPattern) -> Bool {
        let tokens = pattern.description.split(separator: ".", omittingEmptySubsequences: false)
        return tokens.count > prefixTokens.count && Array(tokens.prefix(prefixTokens.count)) == prefixTokens
    }
}
