/// Why a template in the settings cannot be used; reported when the config is validated.
struct TemplateSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A sentence naming the offending part of the template.
    let description: String

    static func unclosed(at offset: Int) -> TemplateSyntaxError {
        TemplateSyntaxError(description: "a \"{\" at character \(offset + 1) is never closed (write {{ for a literal brace)")
    }

    /// Quotes the placeholder only when it reads like one (a typo such as `{paylod.city}`):
    /// settings may hold secrets from the environment, which must not reach a message.
    static func unknownPlaceholder(_ text: Substring, at offset: Int) -> TemplateSyntaxError {
        let readable = text.utf8.count <= 40 && text.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
                return true
            default:
                return false
            }
        }
        let shown = readable ? "{\(text)}" : "at character \(offset + 1)"
        return TemplateSyntaxError(
            description: "unknown placeholder \(shown): use {payload.PATH} or {state.PATH} (write {{ and }} for literal braces)"
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
