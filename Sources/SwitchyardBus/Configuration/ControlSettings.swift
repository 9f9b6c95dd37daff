import Glibc

/// The `"bus.control"` section: who may use the control socket, and how long an idle
/// connection is kept.
public struct ControlSettings: Sendable, Hashable {
    /// Users besides the bus's own that may connect, by user id (`allowUIDs`, and the names of
    /// `allowUsers` resolved when the configuration is read). Default: none; every other
    /// user's connection gets a `permission-denied` error and is closed. The socket file's
    /// mode 0600 and the data directory's 0700 keep others out too: allowing a user here only
    /// matters when they can reach the socket (e.g. through a link or a group-shared parent
    /// the operator set up).
    public var allowedUserIDs: Set<UInt32>
    /// How long a connection may stay without a request before it is closed (`idleTimeout`,
    /// seconds). A connection that watches is never idle; one with replies on their way is
    /// not either. Default: 300 seconds.
    public var idleTimeout: Duration

    /// Creates settings; every parameter has the default documented on its property.
    public init(allowedUserIDs: Set<UInt32> = [], idleTimeout: Duration = .seconds(300)) {
        self.allowedUserIDs = allowedUserIDs
        self.idleTimeout = idleTimeout
    }

    /// Reads the `"control"` object, recording problems (and unknown keys) in `settings`.
    static func read(from settings: PluginSettings) -> ControlSettings {
        let defaults = ControlSettings()
        var allowed = Set<UInt32>()
        if let found = settings.json("allowUIDs") {
            if case .array(let elements) = found, elements.allSatisfy({ Self.userID($0) != nil }) {
                allowed.formUnion(elements.compactMap(Self.userID))
            } else {
                settings.problem("allowUIDs", "expected an array of user ids (integers 0-4294967294), got \(settings.describe(found, at: "allowUIDs"))")
            }
        }
        for name in settings.strings("allowUsers") {
            guard let entry = getpwnam(name) else {
                settings.problem("allowUsers", "no user named \(JSON.string(name).serialized()) on this system")
                continue
            }
            allowed.insert(entry.pointee.pw_uid)
        }
        return ControlSettings(
            allowedUserIDs: allowed,
            idleTimeout: settings.seconds("idleTimeout", default: defaults.idleTimeout, range: 0.001...31_536_000)
        )
    }

    private static func userID(_ value: JSON) -> UInt32? {
        guard case .integer(let number) = value, (0...4_294_967_294).contains(number) else { return nil }
        return UInt32(number)
    }
}
