// snippet.hide
// The README's embedded bus with a plugin kind of its own, quoted verbatim.
// snippet.show
import Foundation
import SwitchyardBus

/// Emits `NAME/beat` every `every` seconds.
struct Heartbeat: Plugin {
    static let kind = "heartbeat"
    static let summary = "Emits NAME/beat periodically."
    static let settingDescriptions = [SettingDescription("every", "number of seconds 0.01-3600", default: "1", "Time between beats.")]

    let every: Duration

    init(name: String, settings: PluginSettings) throws {
        every = settings.seconds("every", default: .seconds(1), range: 0.01...3600)
        try settings.finish()                      // reports unknown keys, with a did-you-mean
    }

    func run(context: PluginContext) async throws {
        while !Task.isCancelled {
            try await context.sleep(for: every)
            await context.dispatch("\(context.name)/beat")
        }
    }
}

// snippet.hide
/// Runs the snippet, printing into `output`.
public func embeddingTheBusSnippet(_ output: Printed) async throws {
    @Sendable func print(_ items: Any...) { output.append(items) }
    // snippet.show
    var registry = PluginRegistry()
    registry.register(Heartbeat.self)
    let configuration = try BusConfiguration.parse("""
        {"plugins": [{"name": "pulse", "kind": "heartbeat", "every": 0.5}]}
        """, file: "inline.json", environment: ProcessInfo.processInfo.environment, registry: registry)
    let bus = try Bus(configuration: configuration, registry: registry)
    let beats = bus.actions(matching: TypePattern("pulse/*")!)   // registered before the bus runs
    let running = Task { try await bus.run() }            // until cancelled or bus.stop()
    for await action in beats.prefix(3) {
        print(action.type, action.id)
    }
    bus.stop()                                            // stops the plugins in reverse order
    try await running.value
    // snippet.hide
}
