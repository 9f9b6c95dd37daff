/// A reader over one plugin's settings that validates as it reads and reports every problem at
/// once.
///
/// A plugin's throwing init reads each key with a typed reader (``int(_:default:range:)``,
/// ``seconds(_:default:range:)``, …). A reader never throws: a missing, mistyped or out-of-range
/// value is recorded as a ``ConfigurationProblem`` with its key path, and the reader returns the
/// default (or `nil`). ``finish()`` then reports keys that were never read as unknown and throws
/// ``PluginSettingsError`` when anything was recorded:
///
/// ```swift
/// init(settings: PluginSettings) throws {
///     host = settings.string("host", default: "127.0.0.1")
///     port = settings.int("port", default: 2947, range: 1...65535)
///     try settings.finish()
/// }
/// ```
///
/// Nested readers (``object(_:)``, ``array(_:)``) share the problem list of the reader that
/// made them, and their unknown keys are reported by the outermost ``finish()``. Not `Sendable`:
/// it is meant for the synchronous init of one plugin.
public final class PluginSettings {
    /// The key path of these settings, such as `plugins[2]` or `plugins[2].request`.
    public let path: String
    /// The settings as given, after environment expansion.
    public let values: [String: JSON]

    let log: Log
    private let reservedKeys: Set<String>
    private let checksUnknownKeys: Bool
    private var knownKeys: Set<String> = []
    private var children: [PluginSettings] = []
    private var unknownKeysReported = false

    /// Creates a reader over a plugin entry's settings at `path` (`plugins[2]`). The keys the bus
    /// reserves (`name`, `kind`, `restart`) are never reported as unknown.
    public convenience init(_ values: [String: JSON], path: String) {
        self.init(values, path: path, log: Log(), reservedKeys: PluginDeclaration.reservedKeys)
    }

    /// Creates a reader over a declared plugin's settings. Strings that came from the
    /// environment are shown as written (`"${API_TOKEN}"`) in problems, never as their value,
    /// and may stand for a number or boolean (`"port": "${GPSD_PORT:-2947}"`).
    public convenience init(_ declaration: PluginDeclaration) {
        self.init(
            declaration.settings,
            path: declaration.path,
            log: Log(environmentTemplates: declaration.environmentTemplates, baseDirectory: declaration.baseDirectory),
            reservedKeys: PluginDeclaration.reservedKeys
        )
    }

    init(
        _ values: [String: JSON],
        path: String,
        log: Log,
        reservedKeys: Set<String> = [],
        checksUnknownKeys: Bool = true
    ) {
        self.values = values
        self.path = path
        self.log = log
        self.reservedKeys = reservedKeys
        self.checksUnknownKeys = checksUnknownKeys
    }

    /// Every problem recorded so far by this reader, the readers it made and the ones that made it.
    public var problems: [ConfigurationProblem] {
        log.problems
    }

    /// Whether `key` is present; does not count as reading it.
    public func contains(_ key: String) -> Bool {
        values[key] != nil
    }

    /// Records a problem at `key` (the reader's own path when `key` is empty), for checks only
    /// the plugin can make, such as two settings that contradict each other.
    public func problem(_ key: String, _ message: String) {
        log.problems.append(ConfigurationProblem(path: keyPath(key), message: message))
    }

    /// Reports every key never read as unknown, with a did-you-mean when a read key is close,
    /// then throws if any problem was recorded. Calling it again reports nothing new.
    ///
    /// - Throws: ``PluginSettingsError`` with every recorded problem.
    public func finish() throws(PluginSettingsError) {
        reportUnknownKeys()
        if !log.problems.isEmpty {
            throw PluginSettingsError(problems: log.problems)
        }
    }

    // MARK: Shared machinery

    /// The problems and environment templates shared by a reader and every reader it makes.
    final class Log {
        var problems: [ConfigurationProblem] = []
        var environmentTemplates: [String: String]
        /// See ``PluginDeclaration/baseDirectory``.
        let baseDirectory: String

        init(environmentTemplates: [String: String] = [:], baseDirectory: String = "") {
            self.environmentTemplates = environmentTemplates
            self.baseDirectory = baseDirectory
        }
    }

    /// The value at `key`, marking the key as known whether or not it is present.
    func value(_ key: String) -> JSON? {
        knownKeys.insert(key)
        return values[key]
    }

    func keyPath(_ key: String) -> String {
        SettingsPath.member(key, of: path)
    }

    /// The text that came from the environment at `key`, as written, when there is one.
    func environmentTemplate(at key: String) -> String? {
        log.environmentTemplates[keyPath(key)]
    }

    /// A value as quoted in messages: its JSON text, shortened when long, or the environment
    /// reference it came from so that a secret never reaches a log.
    func describe(_ value: JSON, at key: String) -> String {
        describe(value, atPath: keyPath(key))
    }

    func describe(_ value: JSON, atPath path: String) -> String {
        if let template = log.environmentTemplates[path] {
            return "the expansion of \(JSON.string(template).serialized())"
        }
        return Self.quote(value)
    }

    static func quote(_ value: JSON) -> String {
        let text = value.serialized()
        let limit = 60
        guard text.count > limit else { return text }
        return String(text.prefix(limit)) + "…"
    }

    func child(_ members: [String: JSON], path childPath: String) -> PluginSettings {
        let reader = PluginSettings(members, path: childPath, log: log)
        children.append(reader)
        return reader
    }

    /// Records an unknown-key problem for each key never read, here and in nested readers.
    func reportUnknownKeys() {
        if checksUnknownKeys, !unknownKeysReported {
            unknownKeysReported = true
            let candidates = knownKeys.sorted()
            for key in values.keys.sorted() where !knownKeys.contains(key) && !reservedKeys.contains(key) {
                var message = "unknown key \(JSON.string(key).serialized())"
                if let suggestion = DidYouMean.suggestion(for: key, among: candidates) {
                    message += "; did you mean \(JSON.string(suggestion).serialized())?"
                } else if !candidates.isEmpty {
                    message += "; known keys: " + candidates.map { JSON.string($0).serialized() }.joined(separator: ", ")
                }
                log.problems.append(ConfigurationProblem(path: keyPath(key), message: message))
            }
        }
        for child in children {
            child.reportUnknownKeys()
        }
    }
}

/// A reader belongs to the synchronous init of one plugin; it records problems without locks.
@available(*, unavailable)
extension PluginSettings: Sendable {}
