// snippet.hide
// The README's TestBus snippet, quoted verbatim; `Heartbeat` is the embedding snippet's.
// Run inside a Swift Testing test, whose issues its waits record.
import SwitchyardBus
import Testing
// snippet.show
import SwitchyardBusTesting

// snippet.hide
/// Runs the snippet, printing into `output`.
public func testingAPluginSnippet(_ output: Printed) async throws {
    @Sendable func print(_ items: Any...) { output.append(items) }
    let registry = PluginRegistry(Heartbeat.self)
    // snippet.show
    let bus = try TestBus(configuration: #"{"plugins": [{"name": "pulse", "kind": "heartbeat", "every": 2}]}"#,
                          registry: registry)          // on a ManualClock unless told otherwise
    await bus.start()
    await bus.waitForSleepers(atLeast: 1)              // the plugin has set its timer
    bus.advance(by: .seconds(2))
    let beat = await bus.receive("pulse/beat")         // the next one; an issue if none comes
    print(beat?.source ?? "none", bus.actions("pulse/*").count)   // pulse 1
    try await bus.stop()                               // stops the plugins, cancelling their tasks
    // snippet.hide
}
