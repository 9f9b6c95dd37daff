/// Expands `${VAR}` and `${VAR:-default}` in configuration strings, so secrets and per-host
/// values stay out of files.
///
/// - `${NAME}` is the variable's value; an unset variable is a problem.
/// - `${NAME:-default}` is the value, or `default` (up to the first `}`) when the variable is
///   unset or empty.
/// - `${secret:NAME}` (also with a default) is the same value, marked a credential: the bus
///   keeps it out of what it writes about its configuration (see ``Secrets``).
/// - `$$` is a literal `$`; a `$` followed by anything but `{` or `$` is kept as it is.
///
/// Names are letters, digits and `_`, not starting with a digit. Problems name the variable but
/// never contain a value, so a token cannot leak into a log.
package struct EnvironmentExpander: Sendable {
    /// The variables references are resolved against, usually `ProcessInfo.processInfo.environment`.
    package var environment: [String: String]
    /// Whether an unset variable without a default expands to its reference as written
    /// (`${PLACES_URL}`) instead of to nothing; it is a problem either way. Default: `false`.
    package var keepsUnsetReferences = false

    /// Creates an expander over `environment`.
    package init(environment: [String: String], keepsUnsetReferences: Bool = false) {
        self.environment = environment
        self.keepsUnsetReferences = keepsUnsetReferences
    }

    /// The text with every reference replaced; a problem message is appended to `problems` for
    /// each unset variable or malformed reference (which expands to nothing).
    package func expand(_ text: String, problems: inout [String]) -> String {
        guard text.utf8.contains(UInt8(ascii: "$")) else { return text }
        let bytes = Array(text.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            let next = index + 1 < bytes.count ? bytes[index + 1] : nil
            guard byte == UInt8(ascii: "$"), next == UInt8(ascii: "$") || next == UInt8(ascii: "{") else {
                output.append(byte)
                index += 1
                continue
            }
            if next == UInt8(ascii: "$") {
                output.append(byte)
                index += 2
                continue
            }
            guard let close = bytes[(index + 2)...].firstIndex(of: UInt8(ascii: "}")) else {
                problems.append("unterminated \"${\" (write \"$$\" for a literal \"$\")")
                break
            }
            let reference = String(decoding: bytes[(index + 2)..<close], as: UTF8.self)
            output.append(contentsOf: resolve(reference, problems: &problems).utf8)
            index = close + 1
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// `value` with every string inside it expanded. Problems carry the key path of their string
    /// (`plugins[1].request.headers.Authorization`); for each string that referenced a variable,
    /// `templates` maps its key path to the text as written, so later messages can show the
    /// reference instead of the secret, and `credentials` gathers what the string holds in a
    /// credential position (see ``CredentialPositions``). Object keys are not expanded.
    package func expand(
        _ value: JSON,
        path: String,
        problems: inout [ConfigurationProblem],
        templates: inout [String: String],
        credentials: inout CredentialPositions.Found
    ) -> JSON {
        expand(value, path: path, key: nil, problems: &problems, templates: &templates, credentials: &credentials)
    }

    /// `value` expanded under the object key `key` (an array's elements keep their array's key).
    private func expand(
        _ value: JSON,
        path: String,
        key: String?,
        problems: inout [ConfigurationProblem],
        templates: inout [String: String],
        credentials: inout CredentialPositions.Found
    ) -> JSON {
        switch value {
        case .string(let text):
            var messages: [String] = []
            let expanded = expand(text, problems: &messages)
            problems.append(contentsOf: messages.map { ConfigurationProblem(path: path, message: $0) })
            if text.contains("${") {
                templates[path] = text
                credentials.add(CredentialPositions.find(in: text, key: key, environment: environment))
            }
            return .string(expanded)
        case .array(let elements):
            return .array(elements.enumerated().map { offset, element in
                expand(element, path: SettingsPath.element(offset, of: path), key: key,
                       problems: &problems, templates: &templates, credentials: &credentials)
            })
        case .object(let members):
            var expanded = members
            for key in members.keys.sorted() {
                expanded[key] = expand(
                    members[key].unsafelyUnwrapped,
                    path: SettingsPath.member(key, of: path),
                    key: key,
                    problems: &problems,
                    templates: &templates,
                    credentials: &credentials
                )
            }
            return .object(expanded)
        case .null, .bool, .integer, .number:
            return value
        }
    }

    /// The names of the variables `text` references, with or without a default, in order;
    /// malformed references are left out.
    package static func references(in text: String) -> [String] {
        markedReferences(in: text).map(\.name)
    }

    /// The variables `text` references, in order, each with whether it is marked
    /// `${secret:NAME}`; malformed references are left out.
    static func markedReferences(in text: String) -> [(name: String, isMarkedSecret: Bool)] {
        var references: [(name: String, isMarkedSecret: Bool)] = []
        var rest = Substring(text)
        while let start = rest.firstRange(of: "${") {
            // `$${` is a literal `$` followed by `{`: skip both dollars.
            if start.lowerBound > rest.startIndex, rest[rest.index(before: start.lowerBound)] == "$" {
                rest = rest[start.upperBound...]
                continue
            }
            guard let close = rest[start.upperBound...].firstIndex(of: "}") else { break }
            let reference = name(in: rest[start.upperBound..<close])
            if isValidName(reference.name) { references.append((String(reference.name), reference.isMarkedSecret)) }
            rest = rest[rest.index(after: close)...]
        }
        return references
    }

    /// The variable a reference's text (between `${` and `}`) names, and whether it is marked
    /// `secret:`.
    static func name(in reference: Substring) -> (name: Substring, isMarkedSecret: Bool) {
        let isMarkedSecret = reference.hasPrefix(secretMark)
        let unmarked = isMarkedSecret ? reference.dropFirst(secretMark.count) : reference
        let name = unmarked.firstRange(of: ":-").map { unmarked[..<$0.lowerBound] } ?? unmarked
        return (name, isMarkedSecret)
    }

    /// The prefix that marks a reference as a credential: `${secret:NAME}`.
    static let secretMark = "secret:"

    private func resolve(_ reference: String, problems: inout [String]) -> String {
        let name = Self.name(in: reference[...]).name
        let fallback = reference[name.endIndex...].firstRange(of: ":-").map { reference[$0.upperBound...] }
        guard Self.isValidName(name) else {
            problems.append("invalid environment reference \"${\(reference)}\"; write ${NAME}, ${NAME:-default} or ${secret:NAME}")
            return ""
        }
        if let value = environment[String(name)], !(value.isEmpty && fallback != nil) {
            return value
        }
        if let fallback {
            return String(fallback)
        }
        problems.append("environment variable \(name) is not set")
        return keepsUnsetReferences ? "${\(reference)}" : ""
    }

    private static func isValidName(_ name: Substring) -> Bool {
        guard let first = name.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return false }
        return name.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
        }
    }
}
