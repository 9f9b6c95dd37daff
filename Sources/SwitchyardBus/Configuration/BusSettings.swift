/// The `"bus"` section of a configuration file; every key is optional.
public struct BusSettings: Sendable, Hashable {
    /// The bus's name, shown in logs and readiness lines; default `"switchyard"`.
    public var name: String
    /// Where the journal, snapshots and control socket live, relative to the working
    /// directory; default per bus: ``defaultDataDirectory(forBus:environment:)``.
    public var dataDirectory: String
    /// How actions are journaled; see ``JournalSettings`` for its defaults.
    public var journal: JournalSettings
    /// How long plugins get to stop on shutdown before they are abandoned; default 10 seconds.
    public var stopTimeout: Duration
    /// How many actions wait in the store's inbox before senders must wait; default 4096.
    public var inboxCapacity: Int
    /// Environment variables whose values are shown even where they stand in a credential
    /// position (see ``Secrets``). Default: none.
    public var publicVariables: [String]
    /// The lowest level of the bus log that is written; default `.info`. The `switchyard run`
    /// option `--log-level` overrides it.
    public var logLevel: LogSink.Level
    /// Who may use the control socket and how long idle connections stay; see
    /// ``ControlSettings`` for its defaults.
    public var control = ControlSettings()
    /// Where the bus serves HTTP (dashboard, metrics, health, API); `nil` (the default) serves
    /// none. See ``HTTPSettings``.
    public var http: HTTPSettings?

    /// Creates settings; every parameter has the default documented on its property (a `nil`
    /// data directory is `.switchyard/<name>`).
    public init(
        name: String = "switchyard",
        dataDirectory: String? = nil,
        journal: JournalSettings = JournalSettings(),
        stopTimeout: Duration = .seconds(10),
        inboxCapacity: Int = 4096,
        publicVariables: [String] = [],
        logLevel: LogSink.Level = .info
    ) {
        self.name = name
        self.dataDirectory = dataDirectory ?? Self.defaultDataDirectory(forBus: name)
        self.journal = journal
        self.stopTimeout = stopTimeout
        self.inboxCapacity = inboxCapacity
        self.publicVariables = publicVariables
        self.logLevel = logLevel
    }

    /// The directory a bus named `name` keeps its data in when its configuration names none:
    /// `$STATE_DIRECTORY` (the first of its colon-separated entries) when systemd's
    /// `StateDirectory=` set it, else `.switchyard/<name>` under the working directory — one
    /// directory per bus, so buses never share a journal or a control socket.
    public static func defaultDataDirectory(forBus name: String, environment: [String: String] = [:]) -> String {
        if let state = environment["STATE_DIRECTORY"]?.split(separator: ":").first, !state.isEmpty {
            return String(state)
        }
        return defaultDataRoot + "/" + name
    }

    /// Where the data directories of buses run from the working directory live: `.switchyard`.
    public static let defaultDataRoot = ".switchyard"

    /// Whether `name` can name a directory of its own: not empty, no `/`, not `.` or `..`, no NUL.
    static func isDirectoryName(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && !name.contains("/") && !name.contains("\0")
    }

    /// Reads the `"bus"` object, recording problems (and unknown keys) in `settings`; the
    /// default data directory comes from `environment` (see ``defaultDataDirectory(forBus:environment:)``).
    static func read(from settings: PluginSettings, environment: [String: String] = [:]) -> BusSettings {
        let defaults = BusSettings()
        let name = settings.string("name", default: defaults.name)
        let named = settings.string("dataDirectory")
        if name.isEmpty {
            settings.problem("name", "expected a non-empty string, got \"\"")
        } else if named == nil, !isDirectoryName(name), environment["STATE_DIRECTORY"] == nil {
            settings.problem("name", "\(JSON.string(name).serialized()) cannot name the bus's data directory "
                + "(.switchyard/<name>): leave out '/', or set bus.dataDirectory")
        }
        let dataDirectory = named ?? defaultDataDirectory(forBus: name, environment: environment)
        if dataDirectory.isEmpty { settings.problem("dataDirectory", "expected a non-empty string, got \"\"") }
        var result = BusSettings(
            name: name,
            dataDirectory: dataDirectory,
            journal: settings.object("journal").map(JournalSettings.read(from:)) ?? defaults.journal,
            stopTimeout: settings.seconds("stopTimeout", default: defaults.stopTimeout),
            inboxCapacity: settings.int("inboxCapacity", default: defaults.inboxCapacity, range: 1...10_000_000),
            publicVariables: settings.strings("publicVariables"),
            logLevel: settings.oneOf("logLevel", default: defaults.logLevel)
        )
        result.control = settings.object("control").map(ControlSettings.read(from:)) ?? defaults.control
        result.http = settings.object("http").map(HTTPSettings.read(from:))
        return result
    }
}

/// The `"bus.journal"` section: how durably actions are journaled.
public struct JournalSettings: Sendable, Hashable {
    /// When the journal file is flushed to disk.
    public enum Fsync: String, Sendable, CaseIterable {
        /// After every action: nothing acknowledged is lost, at a cost per action.
        case always
        /// Periodically: a crash of the machine may lose the last moments.
        case interval
        /// Never explicitly: the operating system decides.
        case never
    }

    /// When the journal is flushed to disk; default `.interval`.
    public var fsync: Fsync
    /// How many actions are journaled between state snapshots; default 10000.
    public var snapshotEvery: Int

    /// Creates settings; every parameter has the default documented on its property.
    public init(fsync: Fsync = .interval, snapshotEvery: Int = 10_000) {
        self.fsync = fsync
        self.snapshotEvery = snapshotEvery
    }

    /// Reads the `"journal"` object, recording problems (and unknown keys) in `settings`.
    static func read(from settings: PluginSettings) -> JournalSettings {
        let defaults = JournalSettings()
        return JournalSettings(
            fsync: settings.oneOf("fsync", default: defaults.fsync),
            snapshotEvery: settings.int("snapshotEvery", default: defaults.snapshotEvery, range: 1...Int.max)
        )
    }
}
