import SwitchyardIO
import SwitchyardBus

/// The `gpsd` plugin: reads a gpsd daemon's JSON feed and emits its fixes, satellite summaries,
/// devices and connection status.
///
/// It connects over TCP (default `127.0.0.1:2947`) or a Unix socket, sends
/// `?WATCH={"enable":true,"json":true};` on every connection (with `"device"` when one is
/// configured), and emits:
/// - `NAME/fix`: every TPV — `mode`, and `time`, `lat`, `lon`, `altHAE`, `altMSL`, `speed`,
///   `track`, `climb`, `eph`, `epv`, `epx`, `epy`, `device` when gpsd sent them;
/// - `NAME/satellites`: a SKY summary (`visible`, `used`, `hdop`, `vdop`, `pdop`, `gdop`,
///   `meanUsedSignal`), at most one per `satellitesInterval`;
/// - `NAME/device`: a device appeared or changed (`active: true`) or went away (`false`);
/// - `NAME/status`: `connecting`, `connected`, `no-device`, `stale` or `disconnected`, with
///   `endpoint`, `reason` and `retryIn` (seconds) where they apply.
///
/// Connection failures never reach the bus as errors: the plugin reports `disconnected` and
/// retries with exponential backoff (doubling from `reconnectDelay` up to
/// `maxReconnectDelay`). `state.NAME` keeps the status, the active devices and the last fix.
public struct GPSDPlugin: Plugin {
    /// `gpsd`.
    public static let kind = "gpsd"
    /// One line for `switchyard plugins`.
    public static let summary = "Reads fixes from gpsd: NAME/fix, NAME/satellites, NAME/device, NAME/status."
    /// Every setting with its type and default, for `switchyard plugins`.
    public static let settingDescriptions: [SettingDescription] = [
        SettingDescription("host", "host name or address", default: "\"127.0.0.1\"", "gpsd's TCP host."),
        SettingDescription("port", "integer 1-65535", default: "2947", "gpsd's TCP port."),
        SettingDescription("socket", "path", default: "none", "A Unix socket to use instead of host and port."),
        SettingDescription("device", "path", default: "every device", "Watch only this device, such as /dev/ttyACM0."),
        SettingDescription("satellitesInterval", "seconds >= 0", default: "5", "Shortest time between NAME/satellites."),
        SettingDescription("staleAfter", "seconds > 0", default: "10", "Silence after which the status is stale."),
        SettingDescription("reconnectDelay", "seconds > 0", default: "0.5", "First delay before reconnecting; doubles."),
        SettingDescription("maxReconnectDelay", "seconds > 0", default: "30", "Cap on the reconnect delay."),
        SettingDescription("connectTimeout", "seconds > 0", default: "5", "How long connecting may take."),
        SettingDescription("maxLineLength", "bytes", default: "65536", "Longer lines from gpsd are skipped and counted."),
    ]

    /// The plugin's name: the domain of its actions.
    public let name: String
    let configuration: GPSDConfiguration

    /// Reads and validates the settings (see ``settingDescriptions``).
    ///
    /// - Throws: `PluginSettingsError` with every problem: out-of-range numbers, an empty host,
    ///   `socket` together with `host` or `port`, a reconnect cap below the first delay, unknown keys.
    public init(name: String, settings: PluginSettings) throws {
        self.name = name
        configuration = Self.read(settings)
        try settings.finish()
    }

    private static func read(_ settings: PluginSettings) -> GPSDConfiguration {
        var configuration = GPSDConfiguration()
        let host = settings.string("host")
        let port = settings.int("port", range: 1...65_535)
        if let socket = settings.string("socket") {
            if host != nil || settings.contains("port") {
                settings.problem("socket", "give either \"socket\" or \"host\" and \"port\", not both")
            }
            if socket.isEmpty { settings.problem("socket", "expected a socket path, got \"\"") }
            configuration.endpoint = .unix(path: socket)
        } else {
            if host?.isEmpty == true { settings.problem("host", "expected a host name or address, got \"\"") }
            configuration.endpoint = .tcp(host: host ?? "127.0.0.1", port: port ?? 2947)
        }
        if let device = settings.string("device") {
            if device.isEmpty { settings.problem("device", "expected a device path, got \"\"") }
            configuration.device = device
        }
        configuration.satellitesInterval = settings.seconds("satellitesInterval", default: .seconds(5), range: 0...86_400)
        configuration.staleAfter = settings.seconds("staleAfter", default: .seconds(10), range: 0.05...86_400)
        configuration.reconnectDelay = settings.seconds("reconnectDelay", default: .milliseconds(500), range: 0.01...3_600)
        configuration.maximumReconnectDelay = settings.seconds("maxReconnectDelay", default: .seconds(30), range: 0.01...86_400)
        if configuration.maximumReconnectDelay < configuration.reconnectDelay {
            settings.problem("maxReconnectDelay", "must not be below reconnectDelay (\(configuration.reconnectDelay.secondsValue) seconds)")
        }
        configuration.connectTimeout = settings.seconds("connectTimeout", default: .seconds(5), range: 0.05...300)
        configuration.maximumLineLength = settings.int("maxLineLength", default: 64 * 1024, range: 1_024...(16 << 20))
        return configuration
    }

    /// `state.NAME`: `status`, `devices` (active ones by path) and the last `fix`.
    public var slice: StateSlice? {
        GPSDSlice.slice(name: name)
    }

    /// The slice alone, for reducing without running: it depends only on the name, so the
    /// endpoint's settings (a host or port from the environment) are not read.
    public static func slice(name: String, settings: PluginSettings) throws -> StateSlice? {
        GPSDSlice.slice(name: name)
    }

    /// Runs the feed until cancelled; never throws.
    public func run(context: PluginContext) async throws {
        let name = name
        let flow = GPSDFlowCounters()
        context.reportCounters {
            ["readPauses": Int64(flow.pauses), "overrunDisconnects": Int64(flow.overrunDisconnects)]
        }
        let session = GPSDSession(
            configuration: configuration, clock: context.clock, transport: SocketTransport(),
            output: GPSDSessionOutput(
                emit: { event, payload in
                    // A status quotes the configured endpoint; fixes and devices come from gpsd.
                    let emitted = event == "status" ? context.secrets.redact(payload) : payload
                    await context.dispatch("\(name)/\(event)", payload: emitted)
                },
                info: { context.log.info($0) }, warning: { context.log.warning($0) }, flow: flow))
        await session.run()
    }
}
