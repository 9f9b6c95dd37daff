/// When and how often the bus restarts a plugin whose `run` ended.
///
/// Written in a plugin entry as `"restart": "always"` or as an object
/// `{"policy": "always", "maxRestarts": 5, "window": 60, "initialBackoff": 0.1, "maxBackoff": 30}`
/// with durations in seconds; every member is optional.
public struct RestartPolicy: Sendable, Hashable {
    /// Which endings lead to a restart.
    public enum Mode: String, Sendable, CaseIterable {
        /// Restart after a failure and after a normal return.
        case always
        /// Restart only when `run` throws.
        case onFailure = "on-failure"
        /// Never restart; the plugin stays stopped.
        case never
    }

    /// Which endings lead to a restart; default `.onFailure`.
    public var mode: Mode
    /// The most restarts allowed within ``window``; one more and the plugin stays stopped.
    /// Default 5.
    public var maxRestarts: Int
    /// The sliding window ``maxRestarts`` counts over; default 60 seconds.
    public var window: Duration
    /// The delay before the first restart, doubled for each further one; default 100 ms.
    public var initialBackoff: Duration
    /// The longest delay between restarts; default 30 seconds.
    public var maxBackoff: Duration

    /// Creates a policy; every parameter has the default documented on its property.
    public init(
        mode: Mode = .onFailure,
        maxRestarts: Int = 5,
        window: Duration = .seconds(60),
        initialBackoff: Duration = .milliseconds(100),
        maxBackoff: Duration = .seconds(30)
    ) {
        self.mode = mode
        self.maxRestarts = maxRestarts
        self.window = window
        self.initialBackoff = initialBackoff
        self.maxBackoff = maxBackoff
    }

    /// Reads the policy at `key` of a plugin entry, recording problems in `entry`.
    static func read(_ key: String, from entry: PluginSettings) -> RestartPolicy {
        let defaults = RestartPolicy()
        switch entry.json(key) {
        case nil:
            return defaults
        case .string:
            return RestartPolicy(mode: entry.oneOf(key, default: defaults.mode))
        case .object:
            guard let settings = entry.object(key) else { return defaults }
            let policy = RestartPolicy(
                mode: settings.oneOf("policy", default: defaults.mode),
                maxRestarts: settings.int("maxRestarts", default: defaults.maxRestarts, range: 0...1_000_000),
                window: settings.seconds("window", default: defaults.window),
                initialBackoff: settings.seconds("initialBackoff", default: defaults.initialBackoff),
                maxBackoff: settings.seconds("maxBackoff", default: defaults.maxBackoff)
            )
            if policy.maxBackoff < policy.initialBackoff {
                settings.problem("maxBackoff", "must not be shorter than initialBackoff")
            }
            return policy
        case let other?:
            let modes = Mode.allCases.map { JSON.string($0.rawValue).serialized() }.joined(separator: ", ")
            entry.problem(
                key,
                "expected one of \(modes), or an object with \"policy\", \"maxRestarts\", \"window\", "
                    + "\"initialBackoff\" and \"maxBackoff\", got \(entry.describe(other, at: key))"
            )
            return defaults
        }
    }
}
