import SwitchyardBus
import SwitchyardTestSupport
import Synchronization

/// Plugin kinds used by the bus tests; each exercises one part of the plugin contract.

/// Answers every `ping/*` action with `NAME/pong`, caused by the ping, and counts pongs in its
/// slice.
struct EchoPlugin: Plugin {
    static let kind = "echo"
    static let summary = "Answers pings."
    static let settingDescriptions: [SettingDescription] = [SettingDescription("prefix", "text", default: "\"\"", "Added to the reply.")]

    let name: String
    let prefix: String

    init(name: String, settings: PluginSettings) throws {
        self.name = name
        prefix = settings.string("prefix", default: "")
        try settings.finish()
    }

    var subscription: ActionSubscription? { ActionSubscription(TypePattern("ping/*")!) }

    var slice: StateSlice? {
        let type = "\(name)/pong"
        return StateSlice(initial: ["pongs": 0]) { slice, action in
            guard action.type == type else { return }
            slice["pongs"] = .integer(Int64((slice["pongs"]?.intValue ?? 0) + 1))
        }
    }

    func run(context: PluginContext) async throws {
        for await action in context.actions {
            await context.dispatch("\(context.name)/pong", payload: .string(prefix + (action.payload.stringValue ?? "")), cause: action.id)
        }
    }
}

/// Throws from `run` the first `failures` times (counted across instances by name), then
/// emits `NAME/up` and waits for cancellation.
struct FlakyPlugin: Plugin {
    static let kind = "flaky"
    static let summary = "Fails a few times."
    static let settingDescriptions: [SettingDescription] = []
    static let attempts = Mutex([String: Int]())

    struct Failure: Error, CustomStringConvertible {
        let attempt: Int
        var description: String { "deliberate failure \(attempt)" }
    }

    let failures: Int

    init(name: String, settings: PluginSettings) throws {
        failures = settings.int("failures", default: 2, range: 0...100)
        try settings.finish()
    }

    func run(context: PluginContext) async throws {
        let attempt = Self.attempts.withLock { attempts in
            attempts[context.name, default: 0] += 1
            return attempts[context.name]!
        }
        if attempt <= failures { throw Failure(attempt: attempt) }
        await context.dispatch("\(context.name)/up", payload: .integer(Int64(attempt)))
        while !Task.isCancelled { try? await Task.sleep(for: .seconds(60)) }
    }
}

/// Records when it starts and stops in a shared journal, to check ordering.
struct RecorderPlugin: Plugin {
    static let kind = "recorder"
    static let summary = "Records its start and stop."
    static let settingDescriptions: [SettingDescription] = []
    static let events = Mutex([String]())

    init(name: String, settings: PluginSettings) throws {
        try settings.finish()
    }

    func run(context: PluginContext) async throws {
        Self.events.withLock { $0.append("start \(context.name)") }
        while !Task.isCancelled { try? await Task.sleep(for: .seconds(60)) }
        Self.events.withLock { $0.append("stop \(context.name)") }
    }
}

/// Reports ready only when `ready` is true; otherwise holds the bus's start-up.
struct HandshakePlugin: Plugin {
    static let kind = "handshake"
    static let summary = "Signals readiness."
    static let settingDescriptions: [SettingDescription] = []

    let willBeReady: Bool

    init(name: String, settings: PluginSettings) throws {
        willBeReady = settings.bool("ready", default: true)
        try settings.finish()
    }

    // The timeout is what a never-ready plugin is tested against; a plugin that will signal
    // gets a generous one, so a busy machine that schedules its task late is not a failure.
    var readiness: PluginReadiness { .signalled(timeout: willBeReady ? TestTimeouts.scaled(.seconds(60)) : .milliseconds(200)) }

    func run(context: PluginContext) async throws {
        if willBeReady { context.ready() }
        while !Task.isCancelled { try? await Task.sleep(for: .seconds(60)) }
    }
}

func testRegistry() -> PluginRegistry {
    var registry = PluginRegistry()
    for type: any Plugin.Type in [EchoPlugin.self, FlakyPlugin.self, RecorderPlugin.self, HandshakePlugin.self] {
        registry.register(type)
    }
    return registry
}

func makeBus(_ json: String, registry: PluginRegistry = testRegistry(), log: LogSink = LogSink(minimumLevel: .error)) throws -> Bus {
    let configuration = try BusConfiguration.parse(json, file: "test.json", environment: [:], knownKinds: registry.kinds)
    return try Bus(configuration: configuration, registry: registry, log: log)
}
