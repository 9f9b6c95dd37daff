/// The plugin kinds a bus can build, by the `kind` a config file names.
///
/// The `switchyard` program registers the built-ins; a program embedding the bus builds its
/// own registry with its own kinds beside (or instead of) them.
public struct PluginRegistry: Sendable {
    private var types: [String: any Plugin.Type] = [:]

    /// An empty registry.
    public init() {}

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
        let settings = PluginSettings(declaration.settings, path: declaration.path)
        return try type.init(name: declaration.name, settings: settings)
    }
}
