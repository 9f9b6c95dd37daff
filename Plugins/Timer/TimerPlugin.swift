import SwitchyardBus

/// Emits an action every `interval` seconds: for polling other plugins and for demos.
///
/// Ticks are scheduled against the start time (tick n at start + n × interval, or at start +
/// (n − 1) × interval with `fireAtStart`), so they do not drift however long dispatching takes.
/// Without a `payload` setting each action carries `{"tick": n}`, counting from 1. With
/// `count`, `run` returns after that many ticks.
public struct TimerPlugin: Plugin {
    public static let kind = "timer"
    public static let summary = "Emits an action every `interval` seconds (polling, heartbeats, demos)."
    public static let settingDescriptions: [SettingDescription] = [
        SettingDescription("interval", "number of seconds 0.001-31536000", default: "1", "Time between two actions."),
        SettingDescription("type", "action type", default: "\"NAME/tick\"", "The type of the emitted actions."),
        SettingDescription("payload", "any JSON", default: "{\"tick\": n}", "The payload of every action."),
        SettingDescription("count", "integer ≥ 1", default: "unlimited", "Stop after this many actions."),
        SettingDescription("fireAtStart", "boolean", default: "false", "Emit the first action when the plugin starts, not one interval later."),
    ]

    /// The time between two actions.
    public let interval: Duration
    /// The emitted action type.
    public let type: String
    /// The fixed payload, or `nil` for `{"tick": n}`.
    public let payload: JSON?
    /// How many actions to emit before returning; `nil` for no limit.
    public let count: Int?
    /// Whether the first action is emitted at start rather than after one interval.
    public let fireAtStart: Bool

    public init(name: String, settings: PluginSettings) throws {
        interval = settings.seconds("interval", default: .seconds(1), range: 0.001...86_400 * 365)
        let type = settings.string("type", default: "\(name)/tick")
        if !ActionType.isValid(type) {
            settings.problem("type", "expected a lower-case \"domain/event\" action type, got \(JSON.string(type))")
        }
        self.type = type
        payload = settings.json("payload")
        count = settings.int("count", range: 1...Int.max)
        fireAtStart = settings.bool("fireAtStart", default: false)
        try settings.finish()
    }

    public func run(context: PluginContext) async throws {
        try await tick(on: context.clock, context: context)
    }

    private func tick<C: Clock>(on clock: C, context: PluginContext) async throws where C.Duration == Duration {
        let start = clock.now
        var tick = 0
        while count.map({ tick < $0 }) ?? true {
            tick += 1
            try await clock.sleep(until: start.advanced(by: interval * (fireAtStart ? tick - 1 : tick)), tolerance: nil)
            await context.dispatch(type, payload: payload ?? ["tick": .integer(Int64(tick))])
        }
    }
}
