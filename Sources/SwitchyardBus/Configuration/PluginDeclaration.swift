/// One entry of a configuration's `"plugins"` array: which plugin to start, under what name,
/// with which settings.
public struct PluginDeclaration: Sendable, Hashable {
    /// The keys of an entry the bus reads itself; they are never among ``settings``.
    public static let reservedKeys: Set<String> = ["name", "kind", "restart"]

    /// The instance name, unique in the file: lower-case letters, digits and `-`, starting with a
    /// letter, at most 64 characters. Names its state slice and prefixes its action types.
    public var name: String
    /// The registered plugin kind, such as `gpsd`.
    public var kind: String
    /// How the bus restarts the plugin; default ``RestartPolicy/init(mode:maxRestarts:window:initialBackoff:maxBackoff:)``.
    public var restart: RestartPolicy
    /// The entry's other keys after environment expansion, for the plugin to validate with
    /// ``PluginSettings``.
    public var settings: [String: JSON]
    /// The entry's key path, such as `plugins[2]`, the prefix of every problem about it.
    public var path: String
    /// For each string in ``settings`` that referenced the environment, its key path
    /// (`plugins[2].request.headers.Authorization`) mapped to the text as written, so problems
    /// can show `"${API_TOKEN}"` instead of the secret.
    public var environmentTemplates: [String: String]
    /// The directory the files the plugin reads are found in when named by a relative path:
    /// the configuration file's directory; empty (the working directory) for a configuration
    /// parsed from text or built in code. See ``PluginSettings/inputPath(_:)``.
    public var baseDirectory: String

    /// Creates a declaration; `restart` defaults to the default policy, `settings` and
    /// `environmentTemplates` to empty, `baseDirectory` to the working directory.
    public init(
        name: String,
        kind: String,
        restart: RestartPolicy = RestartPolicy(),
        settings: [String: JSON] = [:],
        path: String,
        environmentTemplates: [String: String] = [:],
        baseDirectory: String = ""
    ) {
        self.name = name
        self.kind = kind
        self.restart = restart
        self.settings = settings
        self.path = path
        self.environmentTemplates = environmentTemplates
        self.baseDirectory = baseDirectory
    }

    /// Whether `name` is a valid plugin name: `^[a-z][a-z0-9-]*$`, at most 64 characters.
    public static func isValidName(_ name: String) -> Bool {
        let utf8 = name.utf8
        guard let first = utf8.first, utf8.count <= 64, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first) else {
            return false
        }
        return utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "-")
        }
    }
}
