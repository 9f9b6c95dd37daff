import FoundationEssentials

/// The credentials a configuration took from the environment, and the one redactor that keeps
/// them out of what the bus writes about its configuration.
///
/// Only a credential is secret (see ``CredentialPositions``: a password, token or URL user
/// info, an `Authorization`, cookie or API-key header, a NATS `user`/`password`/`token`, a
/// `${secret:NAME}` reference); other `${VAR}` values are ordinary text. Log lines, error
/// messages, statistics and the status and failure actions that quote a URL, endpoint or
/// command show `${NAME}` (or ``mask`` for a credential inside a variable's URL) instead of the
/// value, also for its percent-encoded form. Nothing redacts an action's payload as it is
/// journaled: what a user sends, and what a configuration puts in a payload, is kept byte for
/// byte. A default (`${NAME:-default}`) is written in the file, so it is not secret. Values
/// shorter than ``shortestSecret`` characters are not replaced: they cannot be told from
/// ordinary text, and replacing them would garble every line.
public struct Secrets: Sendable, Hashable {
    /// The shortest value treated as a secret: 4 characters.
    public static let shortestSecret = 4
    /// What a credential found inside a variable's value is shown as: `***`.
    public static let mask = "***"

    private struct Entry: Sendable, Hashable {
        var value: String
        var replacement: String
    }

    /// Longest value first, so a secret that contains another is replaced whole.
    private var entries: [Entry] = []

    /// No secrets: redaction changes nothing.
    public init() {}

    /// Every one of `references` (variable names) resolved against `environment` is secret,
    /// except the `publicVariables`.
    public init(references: some Sequence<String>, environment: [String: String], publicVariables: Set<String> = []) {
        for name in Set(references) where !publicVariables.contains(name) {
            guard let value = environment[name] else { continue }
            add(value, name: name)
        }
    }

    /// The secrets of what a configuration holds in credential positions, resolved against
    /// `environment`, except the `publicVariables`.
    package init(credentials: CredentialPositions.Found, environment: [String: String], publicVariables: Set<String>) {
        self.init(references: credentials.names, environment: environment, publicVariables: publicVariables)
        for value in credentials.values { add(value, shownAs: Self.mask) }
    }

    /// Whether there is nothing to redact.
    public var isEmpty: Bool { entries.isEmpty }

    /// The variable names whose values are redacted, sorted.
    public var names: [String] {
        Set(entries.lazy.map(\.replacement).filter { $0.hasPrefix("${") }.map { String($0.dropFirst(2).dropLast()) }).sorted()
    }

    /// Adds `value`, shown as `${name}`.
    public mutating func add(_ value: String, name: String) {
        add(value, shownAs: "${\(name)}")
    }

    /// Adds `value`, shown as `replacement`.
    private mutating func add(_ value: String, shownAs replacement: String) {
        guard value.count >= Self.shortestSecret else { return }
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

}

extension ConfigurationProblem {
    /// The problem with every secret in its message replaced.
    func redacted(_ secrets: Secrets) -> ConfigurationProblem {
        ConfigurationProblem(path: path, message: secrets.redact(message))
    }
}
