import FoundationEssentials

/// The values a configuration took from the environment, and the one redactor that keeps them
/// out of everything the bus produces.
///
/// Every value a `${NAME}` reference expanded to from the environment is secret unless `NAME`
/// is listed in `bus.publicVariables`: wherever it appears — an action (so the state, the
/// journal, watchers and the logger), a log line, an error message, the statistics — it is
/// replaced by `${NAME}`, the reference as written, never the value. The percent-encoded
/// form of a value (as it appears in a URL) is replaced too. A default (`${NAME:-default}`)
/// is written in the file, so it is not secret. Values shorter than
/// ``shortestSecret`` characters are not replaced: they cannot be told from ordinary text,
/// and replacing them would garble every line.
public struct Secrets: Sendable, Hashable {
    /// The shortest value treated as a secret: 4 characters.
    public static let shortestSecret = 4

    private struct Entry: Sendable, Hashable {
        var value: String
        var replacement: String
    }

    /// Longest value first, so a secret that contains another is replaced whole.
    private var entries: [Entry] = []

    /// No secrets: redaction changes nothing.
    public init() {}

    /// The secrets of `references` (the variable names a configuration used) resolved against
    /// `environment`, leaving out the `publicVariables`.
    public init(references: some Sequence<String>, environment: [String: String], publicVariables: Set<String> = []) {
        for name in Set(references) where !publicVariables.contains(name) {
            guard let value = environment[name] else { continue }
            add(value, name: name)
        }
    }

    /// Whether there is nothing to redact.
    public var isEmpty: Bool { entries.isEmpty }

    /// The variable names whose values are redacted, sorted.
    public var names: [String] {
        Set(entries.map { String($0.replacement.dropFirst(2).dropLast()) }).sorted()
    }

    /// Adds `value`, shown as `${name}`.
    public mutating func add(_ value: String, name: String) {
        guard value.count >= Self.shortestSecret else { return }
        let replacement = "${\(name)}"
        var forms = [value]
        for kept in [PercentEncoding.Kept.path, .query, .alphanumerics] {
            let encoded = PercentEncoding.encode(value, keeping: kept)
            if encoded != value, !forms.contains(encoded) { forms.append(encoded) }
        }
        for form in forms where !entries.contains(Entry(value: form, replacement: replacement)) {
            entries.append(Entry(value: form, replacement: replacement))
        }
        entries.sort { $0.value.utf8.count > $1.value.utf8.count }
    }

    /// These secrets and those of `other`.
    public func merging(_ other: Secrets) -> Secrets {
        var merged = self
        for entry in other.entries where !merged.entries.contains(entry) { merged.entries.append(entry) }
        merged.entries.sort { $0.value.utf8.count > $1.value.utf8.count }
        return merged
    }

    /// `text` with every secret replaced by its `${NAME}`.
    public func redact(_ text: String) -> String {
        guard !entries.isEmpty, text.utf8.count >= Self.shortestSecret else { return text }
        var result = text
        for entry in entries where result.contains(entry.value) {
            result = result.replacing(entry.value, with: entry.replacement)
        }
        return result
    }

    /// `value` with every secret in its strings (and object keys) replaced.
    public func redact(_ value: JSON) -> JSON {
        guard !entries.isEmpty else { return value }
        switch value {
        case .string(let text):
            return .string(redact(text))
        case .array(let elements):
            return .array(elements.map(redact))
        case .object(let members):
            var redacted: [String: JSON] = [:]
            redacted.reserveCapacity(members.count)
            for (key, member) in members { redacted[redact(key)] = redact(member) }
            return .object(redacted)
        case .null, .bool, .integer, .number:
            return value
        }
    }

    /// `action` with every secret in its payload and source replaced.
    public func redact(_ action: BusAction) -> BusAction {
        guard !entries.isEmpty else { return action }
        var redacted = action
        redacted.payload = redact(action.payload)
        redacted.source = redact(action.source)
        return redacted
    }
}

extension ConfigurationProblem {
    /// The problem with every secret in its message replaced.
    func redacted(_ secrets: Secrets) -> ConfigurationProblem {
        ConfigurationProblem(path: path, message: secrets.redact(message))
    }
}
