import SwitchyardBus

/// A JSON request body whose strings may hold placeholders.
///
/// A string that is exactly one placeholder (`"{payload.items}"`) becomes the value itself, so
/// numbers stay numbers, objects stay objects and `null` stays `null`; a string with text
/// around its placeholders stays a string. Object keys are taken literally.
indirect enum BodyTemplate: Sendable, Hashable {
    case literal(JSON)
    case text(TextTemplate)
    case value(PlaceholderPath)
    case array([BodyTemplate])
    case object([String: BodyTemplate])

    /// Parses the placeholders in every string of `json`.
    ///
    /// - Throws: ``BodyTemplateError`` naming the location (`items[2].name`) of the first
    ///   string that is not a valid template.
    init(parsing json: JSON) throws(BodyTemplateError) {
        try self.init(parsing: json, location: "")
    }

    private init(parsing json: JSON, location: String) throws(BodyTemplateError) {
        switch json {
        case .string(let text):
            let template: TextTemplate
            do {
                template = try TextTemplate(parsing: text)
            } catch {
                throw BodyTemplateError(location: location, reason: error)
            }
            if let path = template.solePlaceholder {
                self = .value(path)
            } else if template.placeholders.isEmpty {
                self = .literal(.string(template.render(substituting: "")))
            } else {
                self = .text(template)
            }
        case .array(let elements):
            var parsed: [BodyTemplate] = []
            for (index, element) in elements.enumerated() {
                parsed.append(try BodyTemplate(parsing: element, location: "\(location)[\(index)]"))
            }
            self = .array(parsed)
        case .object(let members):
            var parsed: [String: BodyTemplate] = [:]
            for (key, member) in members {
                parsed[key] = try BodyTemplate(parsing: member, location: location.isEmpty ? key : "\(location).\(key)")
            }
            self = .object(parsed)
        default:
            self = .literal(json)
        }
    }

    /// The body for one trigger.
    ///
    /// - Throws: ``TemplateValueError`` for the first placeholder without a value (or, inside
    ///   text, with a `null`, array or object value).
    func render(in scope: TemplateScope) throws(TemplateValueError) -> JSON {
        switch self {
        case .literal(let json):
            return json
        case .text(let template):
            return .string(try template.render(in: scope))
        case .value(let path):
            guard let value = scope.value(at: path) else { throw .missing(path) }
            return value
        case .array(let elements):
            var rendered: [JSON] = []
            rendered.reserveCapacity(elements.count)
            for element in elements { rendered.append(try element.render(in: scope)) }
            return .array(rendered)
        case .object(let members):
            var rendered: [String: JSON] = [:]
            for (key, member) in members { rendered[key] = try member.render(in: scope) }
            return .object(rendered)
        }
    }
}

/// A string in a body template that is not a valid template, with where it is.
struct BodyTemplateError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The location inside the body, such as `items[2].name`; empty for the body itself.
    let location: String
    let reason: TemplateSyntaxError

    var description: String {
        location.isEmpty ? reason.description : "\(location): \(reason)"
    }
}
