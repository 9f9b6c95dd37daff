import SwitchyardBus

/// Text with `{payload.PATH}` and `{state.PATH}` placeholders, parsed once from the settings.
///
/// `{{` and `}}` stand for literal braces; any other brace is a syntax error, so a mistyped
/// placeholder is reported when the config is validated instead of being sent as text.
struct TextTemplate: Sendable, Hashable {
    enum Segment: Sendable, Hashable {
        case literal(String)
        case placeholder(PlaceholderPath)
    }

    let segments: [Segment]

    /// The empty text.
    static let empty = TextTemplate(segments: [])

    private init(segments: [Segment]) {
        self.segments = segments
    }

    /// Parses `text`.
    ///
    /// - Throws: ``TemplateSyntaxError`` for an unclosed or unknown placeholder or a lone `}`.
    init(parsing text: String) throws(TemplateSyntaxError) {
        var segments: [Segment] = []
        var literal = ""
        var index = text.startIndex
        func offset(_ position: String.Index) -> Int { text.distance(from: text.startIndex, to: position) }
        while index < text.endIndex {
            let character = text[index]
            let next = text.index(after: index)
            if character == "{" {
                if next < text.endIndex, text[next] == "{" {
                    literal.append("{")
                    index = text.index(after: next)
                    continue
                }
                guard let close = text[next...].firstIndex(of: "}") else { throw .unclosed(at: offset(index)) }
                let inner = text[next..<close]
                guard !inner.contains("{"), let path = PlaceholderPath(inner) else {
                    throw .unknownPlaceholder(inner, at: offset(index))
                }
                if !literal.isEmpty {
                    segments.append(.literal(literal))
                    literal = ""
                }
                segments.append(.placeholder(path))
                index = text.index(after: close)
            } else if character == "}" {
                guard next < text.endIndex, text[next] == "}" else { throw .loneClosingBrace(at: offset(index)) }
                literal.append("}")
                index = text.index(after: next)
            } else {
                literal.append(character)
                index = next
            }
        }
        if !literal.isEmpty { segments.append(.literal(literal)) }
        self.segments = segments
    }

    /// The placeholders in order of appearance.
    var placeholders: [PlaceholderPath] {
        segments.compactMap { segment in
            if case .placeholder(let path) = segment { return path }
            return nil
        }
    }

    /// The path when the whole template is one placeholder (`"{payload.items}"`), which a JSON
    /// body replaces by the value itself, keeping its type.
    var solePlaceholder: PlaceholderPath? {
        guard segments.count == 1, case .placeholder(let path) = segments[0] else { return nil }
        return path
    }

    /// Fills the placeholders from `scope`; each value is written as text (strings as they
    /// are, numbers in their shortest form, booleans as `true`/`false`) and passed through
    /// `encode` (percent-encoding in URLs, nothing elsewhere).
    ///
    /// - Throws: ``TemplateValueError`` for a missing or `null` value, or an array or object.
    func render(in scope: TemplateScope, encode: (String) -> String = { $0 }) throws(TemplateValueError) -> String {
        var output = ""
        for segment in segments {
            switch segment {
            case .literal(let text):
                output += text
            case .placeholder(let path):
                output += encode(try Self.text(of: path, in: scope))
            }
        }
        return output
    }

    /// Fills every placeholder with `value`, to check the shape of the static parts (such as a
    /// URL's scheme and host) when the config is validated.
    func render(substituting value: String) -> String {
        segments.map { segment in
            switch segment {
            case .literal(let text): return text
            case .placeholder: return value
            }
        }.joined()
    }

    static func text(of path: PlaceholderPath, in scope: TemplateScope) throws(TemplateValueError) -> String {
        guard let value = scope.value(at: path) else { throw .missing(path) }
        switch value {
        case .null: throw .null(path)
        case .string(let text): return text
        case .integer(let number): return String(number)
        case .number(let number): return String(number)
        case .bool(let flag): return flag ? "true" : "false"
        case .array, .object: throw .notScalar(path, kind: value.kindDescription)
        }
    }
}
