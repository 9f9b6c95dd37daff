/// A validated plugin set: the bus settings and the plugins to start, in file order.
///
/// ``parse(_:file:environment:knownKinds:)`` checks the structure the bus owns — JSON syntax,
/// the `bus` section, each plugin's `name`, `kind` and `restart` — and expands `${VAR}`
/// references everywhere. Plugin-specific keys are left to each plugin's ``PluginSettings``.
public struct BusConfiguration: Sendable {
    /// The file the configuration came from, as named by the user; prefixes every problem.
    public var file: String
    /// The `"bus"` section, or its defaults when absent.
    public var bus: BusSettings
    /// The plugins in file order, the order they start in (they stop in reverse).
    public var plugins: [PluginDeclaration]
    /// The credentials `${VAR}` references took from the environment, which the bus keeps out
    /// of what it writes about its configuration (see ``Secrets``); none for a configuration
    /// built in code.
    public var secrets: Secrets

    /// Creates a configuration directly, as a program that builds its bus in code does.
    public init(file: String = "", bus: BusSettings = BusSettings(), plugins: [PluginDeclaration] = [], secrets: Secrets = Secrets()) {
        self.file = file
        self.bus = bus
        self.plugins = plugins
        self.secrets = secrets
    }

    /// Parses and validates configuration text.
    ///
    /// - Parameters:
    ///   - text: The JSON document.
    ///   - file: The name problems are reported under, such as `Config/tracker.json`.
    ///   - environment: The variables `${VAR}` references resolve against.
    ///   - knownKinds: The plugin kinds that can be started; any other `kind` is a problem.
    ///   - checkPlugin: Validates one well-formed plugin entry's own settings; its problems are
    ///     reported with the structural ones. Default: no check.
    /// - Throws: ``ConfigurationError`` listing every structural problem: bad JSON (with line and
    ///   column), a missing or mistyped `plugins`, invalid or duplicate names, unknown kinds,
    ///   invalid restart policies, unset variables and unknown keys outside plugin entries.
    public static func parse(
        _ text: String,
        file: String,
        environment: [String: String],
        knownKinds: [String],
        checkPlugin: (PluginDeclaration) -> [ConfigurationProblem] = { _ in [] }
    ) throws(ConfigurationError) -> BusConfiguration {
        try validate(try topLevel(Array(text.utf8), file: file), file: file, baseDirectory: "",
                     environment: environment, knownKinds: knownKinds, checkPlugin: checkPlugin)
    }

    /// Reads the file at `path` and parses it as ``parse(_:file:environment:knownKinds:)`` does,
    /// with `path` as the file name in problems.
    ///
    /// - Throws: ``ConfigurationError``, also when the file is missing, unreadable, a directory
    ///   or larger than 16 MiB.
    public static func load(
        contentsOf path: String,
        environment: [String: String],
        knownKinds: [String],
        checkPlugin: (PluginDeclaration) -> [ConfigurationProblem] = { _ in [] }
    ) throws(ConfigurationError) -> BusConfiguration {
        try validate(try topLevel(try fileBytes(path), file: path), file: path, baseDirectory: path.parentDirectory,
                     environment: environment, knownKinds: knownKinds, checkPlugin: checkPlugin)
    }

    /// Validates a configuration's top-level members. With `slicesOnly`, an unset variable in a
    /// plugin entry is kept as its reference and reported only when `checkPlugin` finds a
    /// problem in that entry: the entry's slice needed it.
    static func validate(
        _ members: [String: JSON],
        file: String,
        baseDirectory: String,
        environment: [String: String],
        knownKinds: [String],
        slicesOnly: Bool = false,
        checkPlugin: (PluginDeclaration) -> [ConfigurationProblem]
    ) throws(ConfigurationError) -> BusConfiguration {
        let expander = EnvironmentExpander(environment: environment, keepsUnsetReferences: slicesOnly)
        let log = PluginSettings.Log()
        var credentials = CredentialPositions.Found()
        let (root, bus) = readBusSection(of: members, expander: expander, log: log, credentials: &credentials)

        var plugins: [PluginDeclaration] = []
        var reader = PluginEntryReader(expander: expander, knownKinds: knownKinds, log: log, baseDirectory: baseDirectory,
                                       defersEnvironmentProblems: slicesOnly)
        if let entries = pluginEntries(of: root) {
            plugins = entries.enumerated().compactMap { index, entry in
                reader.read(entry, path: SettingsPath.element(index, of: "plugins"))
            }
            credentials.add(reader.credentials)
        }
        root.reportUnknownKeys()
        // Plugin settings are checked too, so one run reports every problem in the file.
        for declaration in plugins {
            let problems = checkPlugin(declaration)
            // Only the variables behind the settings that failed: the rest were not needed.
            let deferred = reader.deferredEnvironmentProblems[declaration.path] ?? []
            log.problems.append(contentsOf: deferred.filter { unset in
                problems.contains { unset.path == $0.path || unset.path.hasPrefix($0.path + ".") || unset.path.hasPrefix($0.path + "[") }
            })
            log.problems.append(contentsOf: problems)
        }
        let secrets = Secrets(credentials: credentials, environment: environment, publicVariables: Set(bus.publicVariables))
        guard log.problems.isEmpty else {
            throw ConfigurationError(file: file, problems: log.problems.map { $0.redacted(secrets) })
        }
        return BusConfiguration(file: file, bus: bus, plugins: plugins, secrets: secrets)
    }

    /// Reads a configuration's top level and its `bus` section (expanded), recording problems in
    /// `log`; the top level's other keys are left to the caller.
    static func readBusSection(
        of members: [String: JSON],
        expander: EnvironmentExpander,
        log: PluginSettings.Log,
        credentials: inout CredentialPositions.Found
    ) -> (root: PluginSettings, bus: BusSettings) {
        var members = members
        var busEnvironmentProblems: [ConfigurationProblem] = []
        if let bus = members["bus"] {
            members["bus"] = expander.expand(
                bus, path: "bus", problems: &busEnvironmentProblems, templates: &log.environmentTemplates,
                credentials: &credentials
            )
        }
        let root = PluginSettings(members, path: "", log: log)
        var bus = BusSettings()
        if let busSettings = root.object("bus") {
            bus = BusSettings.read(from: busSettings, environment: expander.environment)
            busSettings.reportUnknownKeys()
        } else {
            bus.dataDirectory = BusSettings.defaultDataDirectory(forBus: bus.name, environment: expander.environment)
        }
        // Editors find the schema through "$schema" (`switchyard schema` writes it); the bus
        // only checks that it is a string.
        _ = root.string("$schema")
        log.problems.append(contentsOf: busEnvironmentProblems)
        return (root, bus)
    }
}
