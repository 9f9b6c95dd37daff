import Glibc

/// A pattern over action types: exact (`gps/fix`), a whole domain (`gps/*`), one event of
/// every domain (`*/changed`), everything (`*`), or several of them separated by spaces or
/// commas (`gps/* location/*`), which matches what any of them matches.
///
/// Action types are lower-case `domain/event` names; ``init(_:)`` rejects anything else so a
/// typo in a config file is reported instead of silently matching nothing.
public struct TypePattern: Sendable, Hashable, CustomStringConvertible {
    private enum Form: Sendable, Hashable {
        case everything
        case domain(String)
        case exact(String)
        /// `*/REST`: the types whose part after the domain is REST.
        case event(String)
        case any([Form])
    }

    private let form: Form

    /// Matches every action.
    public static let all = TypePattern(form: .everything)

    private init(form: Form) {
        self.form = form
    }

    /// Parses `*`, `domain/*`, `*/event`, an exact `domain/event`, or several of those
    /// separated by spaces or commas; `nil` when any part is none of them (or there is none).
    public init?(_ text: String) {
        let parts = text.split { $0 == " " || $0 == "," || $0 == "\t" }
        var forms: [Form] = []
        for part in parts {
            guard let form = Self.form(String(part)) else { return nil }
            if !forms.contains(form) { forms.append(form) }
        }
        if forms.contains(.everything) { forms = [.everything] }
        guard let first = forms.first else { return nil }
        form = forms.count == 1 ? first : .any(forms)
    }

    private static func form(_ text: String) -> Form? {
        if text == "*" || text == "*/*" {
            return .everything
        } else if text.hasPrefix("*/") {
            let rest = String(text.dropFirst(2))
            guard ActionType.isValid("a/" + rest) else { return nil }
            return .event(rest)
        } else if text.hasSuffix("/*") {
            let domain = String(text.dropLast(2))
            guard ActionType.isValidSegment(domain) else { return nil }
            return .domain(domain)
        } else {
            guard ActionType.isValid(text) else { return nil }
            return .exact(text)
        }
    }

    /// `NAME/*`, the actions a plugin called `name` emits about itself; every action when `name`
    /// is no valid domain (a plugin made in code under such a name).
    package static func domain(_ name: String) -> TypePattern {
        TypePattern(name + "/*") ?? .all
    }

    /// Whether `type` is matched by this pattern.
    public func matches(_ type: String) -> Bool {
        Self.matches(type, form)
    }

    private static func matches(_ type: String, _ form: Form) -> Bool {
        switch form {
        case .everything:
            return true
        case .exact(let exact):
            return type == exact
        case .domain(let domain):
            return matches(type, domain: domain)
        case .event(let rest):
            let utf8 = type.utf8
            guard let slash = utf8.firstIndex(of: UInt8(ascii: "/")) else { return false }
            return utf8[utf8.index(after: slash)...].elementsEqual(rest.utf8)
        case .any(let forms):
            return forms.contains { matches(type, $0) }
        }
    }

    private static func matches(_ type: String, domain: String) -> Bool {
        let utf8 = type.utf8
        guard utf8.count > domain.utf8.count else { return false }
        // Byte for byte: the router asks this for every action and subscription, and
        // `hasPrefix` compared by characters, at several hundred instructions a call. A
        // domain is ASCII and must be followed by `/`, so the bytes decide as the
        // characters did.
        let matched = utf8.withContiguousStorageIfAvailable { bytes in
            domain.utf8.withContiguousStorageIfAvailable { prefix in
                bytes[prefix.count] == UInt8(ascii: "/")
                    && (prefix.isEmpty || memcmp(bytes.baseAddress!, prefix.baseAddress!, prefix.count) == 0)
            }
        }
        if case .some(.some(let result)) = matched { return result }
        return type.hasPrefix(domain)
            && utf8[utf8.index(utf8.startIndex, offsetBy: domain.utf8.count)] == UInt8(ascii: "/")
    }

    /// The pattern as written: `*`, `gps/*`, `*/changed`, `gps/fix`, or its parts joined by a
    /// space (`gps/* location/*`), which ``init(_:)`` reads back.
    public var description: String {
        Self.describe(form)
    }

    private static func describe(_ form: Form) -> String {
        switch form {
        case .everything: return "*"
        case .domain(let domain): return domain + "/*"
        case .exact(let exact): return exact
        case .event(let rest): return "*/" + rest
        case .any(let forms): return forms.map(describe).joined(separator: " ")
        }
    }
}

/// Rules for action type names.
public enum ActionType {
    /// Whether `type` is a valid action type: `domain/event`, possibly with further `/` segments,
    /// each segment made of lower-case letters, digits, `-`, `_` and `.`, starting with a letter
    /// or digit.
    public static func isValid(_ type: String) -> Bool {
        // One pass over the bytes without splitting: every dispatched action is checked.
        var segments = 1
        var atSegmentStart = true
        for byte in type.utf8 {
            if byte == UInt8(ascii: "/") {
                guard !atSegmentStart else { return false }
                segments += 1
                atSegmentStart = true
            } else if atSegmentStart {
                guard isLowerAlphanumeric(byte) else { return false }
                atSegmentStart = false
            } else {
                guard isSegmentByte(byte) else { return false }
            }
        }
        return segments >= 2 && !atSegmentStart
    }

    static func isValidSegment<S: StringProtocol>(_ segment: S) -> Bool {
        guard let first = segment.utf8.first, isLowerAlphanumeric(first) else { return false }
        return segment.utf8.allSatisfy(isSegmentByte)
    }

    private static func isSegmentByte(_ byte: UInt8) -> Bool {
        isLowerAlphanumeric(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
    }

    private static func isLowerAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
