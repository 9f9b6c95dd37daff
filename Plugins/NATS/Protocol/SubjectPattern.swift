/// A NATS subject or subject pattern: dot-separated tokens, where a pattern may use `*` for
/// exactly one token and a final `>` for one or more.
public struct SubjectPattern: Sendable, Hashable, CustomStringConvertible {
    /// The pattern as written, such as `switchyard.gps.>`.
    public let description: String
    private let tokens: [Substring]

    /// Reads a pattern.
    /// - Throws: a sentence saying why `text` is not one: empty tokens, white space, a
    ///   wildcard inside a token, or `>` before the last token.
    public init(_ text: String) throws(SubjectError) {
        if let problem = Self.problem(with: text, wildcards: true) { throw SubjectError(description: problem) }
        description = text
        tokens = text.split(separator: ".", omittingEmptySubsequences: false)
    }

    /// Whether the pattern has no wildcard, so that it names a single subject.
    public var isLiteral: Bool { !tokens.contains { $0 == "*" || $0 == ">" } }

    /// Whether `subject` (a literal subject) matches the pattern.
    public func matches(_ subject: String) -> Bool {
        var index = 0
        for token in subject.split(separator: ".", omittingEmptySubsequences: false) {
            guard index < tokens.count else { return false }
            switch tokens[index] {
            case ">": return true
            case "*": break
            case let literal where literal == token: break
            default: return false
            }
            index += 1
        }
        return index == tokens.count
    }

    /// Whether every subject `other` matches is matched by this pattern too.
    public func covers(_ other: SubjectPattern) -> Bool {
        for (index, token) in other.tokens.enumerated() {
            guard index < tokens.count else { return false }
            switch tokens[index] {
            case ">": return true
            case "*" where token != ">": continue
            case let literal where literal == token: continue
            default: return false
            }
        }
        return tokens.count == other.tokens.count
    }

    /// Why `text` is not a valid subject (`wildcards: false`) or pattern; `nil` when it is.
    static func problem(with text: String, wildcards: Bool) -> String? {
        guard !text.isEmpty else { return "a subject cannot be empty" }
        if text.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F }) {
            return "\"\(text)\" contains white space or control characters"
        }
        let tokens = text.split(separator: ".", omittingEmptySubsequences: false)
        for (index, token) in tokens.enumerated() {
            if token.isEmpty { return "\"\(text)\" has an empty token (two dots, or a dot at an end)" }
            let isWildcard = token == "*" || token == ">"
            if isWildcard, !wildcards { return "\"\(text)\" contains a wildcard, which is not allowed here" }
            if !isWildcard, token.contains(where: { $0 == "*" || $0 == ">" }) {
                return "\"\(text)\" uses a wildcard inside a token; \"*\" and \">\" must stand alone"
            }
            if token == ">", index != tokens.count - 1 { return "\"\(text)\" has \">\" before its last token" }
        }
        return nil
    }
}

/// Why a subject, a subject pattern or a subject prefix cannot be used.
public struct SubjectError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, quoting the subject.
    public var description: String
}
