/// The plugin kinds a bus can build, by the `kind` a config file names.
///
/// The `switchyard` program registers the built-ins; a program embedding the bus builds its
/// own registry with its own kinds beside (or instead of) them.
public struct PluginRegistry: Sendable {
    private var types: [String: any Plugin.Type] = [:]

    /// An empty registry.
    public init() {}

    /// A registry with `types`, as if each were passed to ``register(_:)`` in order.
    public init(_ types: any Plugin.Type...) {
        for type in types { register(type) }
    }

    /// Adds a kind; registering a kind again replaces the earlier type.
    public mutating func register(_ type: any Plugin.Type) {
        types[type.kind] = type
    }

    /// The registered kinds, sorted.
    public var kinds: [String] { types.keys.sorted() }

    /// The registered types, sorted by kind.
    public var pluginTypes: [any Plugin.Type] { kinds.compactMap { types[$0] } }

    /// The type registered for `kind`, if any.
    public func type(forKind kind: String) -> (any Plugin.Type)? { types[kind] }

    /// Builds the plugin a declaration names, validating its settings. Throws
    /// ``PluginSettingsError`` with every problem found (or whatever the plugin's init threw).
    public func makePlugin(_ declaration: PluginDeclaration) throws -> any Plugin {
        guard let type = types[declaration.kind] else {
            throw PluginSettingsError(problems: [
                ConfigurationProblem(path: declaration.path + ".kind",
                                     message: "unknown kind \"\(declaration.kind)\"; known kinds: \(kinds.joined(separator: ", "))")
            ])
        }
        return try type.init(name: declaration.name, settings: PluginSettings(declaration))
    }

    /// The slice of the plugin a declaration names, from its kind's
    /// ``Plugin/slice(name:settings:)``, the plugin not built unless the kind needs it.
    /// Throws as ``makePlugin(_:)`` does.
    public func makeSlice(_ declaration: PluginDeclaration) throws -> StateSlice? {
        guard let type = types[declaration.kind] else { return try makePlugin(declaration).slice }
        return try type.slice(name: declaration.name, settings: PluginSettings(declaration))
    }

    /// The problems ``makeSlice(_:)`` would report for a declaration; empty when its slice can
    /// be made, and for an unknown kind (reported by the configuration's own pass).
    public func sliceProblems(in declaration: PluginDeclaration) -> [ConfigurationProblem] {
        problems(in: declaration) { _ = try makeSlice(declaration) }
    }

    /// The problems building the plugin a declaration names would report; empty when valid,
    /// and empty for an unknown kind, which the configuration's own pass reports (with a
    /// did-you-mean) — once, not twice.
    public func problems(in declaration: PluginDeclaration) -> [ConfigurationProblem] {
        problems(in: declaration) { _ = try makePlugin(declaration) }
    }

    /// The problems `build` throws for a declaration of a registered kind.
    private func problems(in declaration: PluginDeclaration, building build: () throws -> Void) -> [ConfigurationProblem] {
        guard types[declaration.kind] != nil else { return [] }
        do {
            try build()
            return []
        } catch let error as PluginSettingsError {
            return error.problems
        } catch {
            return [ConfigurationProblem(path: declaration.path, message: String(describing: error))]
        }
    }
}

extension BusConfiguration {
    /// Reads and validates a configuration file, plugin settings included, against the kinds
    /// of `registry`; every problem in the file is reported at once.
    /// - Throws: ``ConfigurationError`` with each problem's file, key path and reason.
    public static func load(contentsOf path: String, environment: [String: String], registry: PluginRegistry) throws(ConfigurationError) -> BusConfiguration {
        try load(contentsOf: path, environment: environment, knownKinds: registry.kinds, checkPlugin: registry.problems(in:))
    }

    /// Parses and validates configuration text, plugin settings included, against the kinds of
    /// `registry`. - Throws: ``ConfigurationError`` with every problem.
    public static func parse(_ text: String, file: String, environment: [String: String], registry: PluginRegistry) throws(ConfigurationError) -> BusConfiguration {
        try parse(text, file: file, environment: environment, knownKinds: registry.kinds, checkPlugin: registry.problems(in:))
    }
}
