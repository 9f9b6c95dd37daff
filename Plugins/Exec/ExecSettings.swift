import FoundationEssentials
import Glibc
import SwitchyardBus

/// The settings of an `exec` plugin, as read from its config entry.
public struct ExecSettings: Sendable, Hashable {
    /// The program to run: a path (relative ones resolve against ``workingDirectory``) or a
    /// name looked up in `PATH`. Required.
    public var command: String
    /// The arguments after the program's name. Default: none.
    public var arguments: [String]
    /// Variables set for the child, over the inherited ones; `${VAR}` references in the
    /// config file are expanded by the bus. Default: none.
    public var environment: [String: String]
    /// Whether the child starts from the bus's environment (then ``environment`` is applied)
    /// or from ``environment`` alone. Default: `true`.
    public var inheritsEnvironment: Bool
    /// The directory the child starts in. Default: `nil`, the bus's working directory.
    public var workingDirectory: String?
    /// The actions written to the child's stdin; actions this plugin emitted itself are never
    /// written back. Default: `nil`, none.
    public var actions: TypePattern?
    /// Whether the child reports ready with `{"ready": true}`, holding the bus's readiness
    /// until it does. Default: `false`.
    public var handshake: Bool
    /// How long the bus waits for the handshake before failing to start. Default: 10 seconds.
    public var readyTimeout: Duration
    /// How long a stopping child gets after its stdin closes before SIGTERM, and again after
    /// SIGTERM before SIGKILL. Default: 3 seconds.
    public var stopTimeout: Duration
    /// Lines held for a child that reads slowly before ``overflow`` applies. Default: 256.
    public var queueSize: Int
    /// Which line goes when the queue is full. Default: ``InputOverflowPolicy/dropOldest``.
    public var overflow: InputOverflowPolicy
    /// The longest line accepted from the child, in bytes; a longer one is a protocol error.
    /// Default: 1 MiB.
    public var maximumLineLength: Int

    /// Creates settings; every parameter has the default documented on its property.
    public init(
        command: String,
        arguments: [String] = [],
        environment: [String: String] = [:],
        inheritsEnvironment: Bool = true,
        workingDirectory: String? = nil,
        actions: TypePattern? = nil,
        handshake: Bool = false,
        readyTimeout: Duration = .seconds(10),
        stopTimeout: Duration = .seconds(3),
        queueSize: Int = 256,
        overflow: InputOverflowPolicy = .dropOldest,
        maximumLineLength: Int = 1 << 20
    ) {
        self.command = command
        self.arguments = arguments
        self.environment = environment
        self.inheritsEnvironment = inheritsEnvironment
        self.workingDirectory = workingDirectory
        self.actions = actions
        self.handshake = handshake
        self.readyTimeout = readyTimeout
        self.stopTimeout = stopTimeout
        self.queueSize = queueSize
        self.overflow = overflow
        self.maximumLineLength = maximumLineLength
    }

    /// Reads every key of an `exec` entry, recording each problem in `settings`: a missing
    /// command, one that does not exist or is not executable, a working directory that is
    /// not a directory, an invalid variable name, and every mistyped or out-of-range value.
    init(reading settings: PluginSettings) {
        let defaults = ExecSettings(command: "")
        self.init(
            command: settings.requiredString("command"),
            arguments: settings.strings("args"),
            environment: settings.stringMap("env"),
            inheritsEnvironment: settings.bool("inheritEnv", default: defaults.inheritsEnvironment),
            workingDirectory: settings.string("cwd"),
            actions: settings.contains("actions") ? settings.typePattern("actions", default: .all) : nil,
            handshake: settings.bool("handshake", default: defaults.handshake),
            readyTimeout: settings.seconds("readyTimeout", default: defaults.readyTimeout),
            stopTimeout: settings.seconds("stopTimeout", default: defaults.stopTimeout),
            queueSize: settings.int("queueSize", default: defaults.queueSize, range: 1...1_000_000),
            overflow: settings.oneOf("overflow", default: defaults.overflow),
            maximumLineLength: settings.int("maxLineLength", default: defaults.maximumLineLength, range: 1024...(64 << 20))
        )
        for name in environment.keys.sorted() where name.isEmpty || name.contains("=") || name.contains("\0") {
            settings.problem("env", "\(JSON.string(name).serialized()) is not a valid variable name")
        }
        if let directory = workingDirectory, !Self.isDirectory(directory) {
            settings.problem("cwd", "\(JSON.string(directory).serialized()) is not an existing directory")
        }
        if !command.isEmpty, let problem = Self.problem(withCommand: command, in: workingDirectory) {
            settings.problem("command", problem)
        }
    }

    /// The command to start, with its whole environment.
    func childCommand(busEnvironment: [String: String]) -> ChildCommand {
        var variables = inheritsEnvironment ? busEnvironment : [:]
        variables.merge(environment) { _, own in own }
        return ChildCommand(executable: command, arguments: arguments, environment: variables, workingDirectory: workingDirectory)
    }

    /// The bounds of the connection to the child.
    var limits: ChildLimits {
        var limits = ChildLimits()
        limits.inputCapacity = queueSize
        limits.inputOverflow = overflow
        limits.maximumLineLength = maximumLineLength
        return limits
    }

    private static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }

    private static func problem(withCommand command: String, in directory: String?) -> String? {
        let quoted = JSON.string(command).serialized()
        guard command.contains("/") else {
            let searchPath = ProcessInfo.processInfo.environment["PATH"] ?? ""
            let found = searchPath.split(separator: ":").contains { access("\($0)/\(command)", X_OK) == 0 }
            return found ? nil : "\(quoted) was not found in PATH"
        }
        var path = command
        if let directory, !command.hasPrefix("/") {
            path = directory + "/" + command
        }
        guard FileManager.default.fileExists(atPath: path) else { return "\(quoted) does not exist" }
        guard access(path, X_OK) == 0, !isDirectory(path) else { return "\(quoted) is not an executable file" }
        return nil
    }
}
