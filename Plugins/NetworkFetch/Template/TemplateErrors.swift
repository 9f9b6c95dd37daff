/// Why a template in the settings cannot be used; reported when the config is validated.
struct TemplateSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A sentence naming the offending part of the template.
    let description: String

    static func unclosed(at offset: Int) -> TemplateSyntaxError {
        TemplateSyntaxError(description: "a \"{\" at character \(offset + 1) is never closed (write {{ for a literal brace)")
    }

    static func unknownPlaceholder(_ text: Substring) -> TemplateSyntaxError {
        TemplateSyntaxError(
            description: "unknown placeholder {\(text)}: use {payload.PATH} or {state.PATH} (write {{ and }} for literal braces)"
        )
    }

    static func loneClosingBrace(at offset: Int) -> TemplateSyntaxError {
        TemplateSyntaxError(description: "a lone \"}\" at character \(offset + 1) (write }} for a literal brace)")
    }
}

/// Why a template could not be filled for one trigger: a value is missing or cannot be placed
/// where the template puts it. The request is not sent.
struct TemplateValueError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The placeholder's path, such as `payload.latitude`.
    let path: String
    /// A sentence naming the path and the problem.
    let description: String

    static func missing(_ path: PlaceholderPath) -> TemplateValueError {
        TemplateValueError(path: path.description, description: "placeholder {\(path)} has no value")
    }

    static func null(_ path: PlaceholderPath) -> TemplateValueError {
        TemplateValueError(path: path.description, description: "placeholder {\(path)} is null")
    }

    static func notScalar(_ path: PlaceholderPath, kind: String) -> TemplateValueError {
        TemplateValueError(
            path: path.description,
            description: "placeholder {\(path)} is \(kind); only strings, numbers and booleans fit inside text"
        )
    }
}
