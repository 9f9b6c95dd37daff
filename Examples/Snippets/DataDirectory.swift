// snippet.hide
// The README's bus with a data directory, quoted verbatim; `Heartbeat` is the embedding
// snippet's, and the hidden lines make a fresh data directory and the two configurations.
import Foundation
import SwitchyardDoors

/// Runs the snippet in a fresh data directory under `parent`, printing into `output`;
/// returns the plugins the reload added and the sequence number the dispatch got.
public func dataDirectorySnippet(_ output: Printed, parent: String) async throws -> (added: [String], id: UInt64?) {
    @Sendable func print(_ items: Any...) { output.append(items) }
    let registry = PluginRegistry(Heartbeat.self)
    let settings = #"{"name": "snippet", "dataDirectory": "\#(parent)/data"}"#
    let configuration = try BusConfiguration.parse(#"{"bus": \#(settings), "plugins": []}"#,
                                                   file: "before.json", environment: [:], registry: registry)
    let newConfiguration = try BusConfiguration.parse(
        #"{"bus": \#(settings), "plugins": [{"name": "pulse", "kind": "heartbeat", "every": 60}]}"#,
        file: "after.json", environment: [:], registry: registry)
    // snippet.show
    let bus = try Bus(configuration: configuration, registry: registry, services: BusServices(), serving: .doors())
    // restores from <dataDirectory>/journal, takes the lock; throws JournalError when damaged or in use
    let running = Task { try await bus.run() }        // opens control.sock, starts the plugins
    // snippet.hide
    await bus.waitUntilReady()
    // snippet.show
    let id = await bus.dispatchReturningID(BusAction(type: "demo/hello", source: "app"))
    let report = try await bus.reload(newConfiguration) // ReloadReport: added, removed, restarted, …
    print(bus.statistics.journal?.lastSequence ?? 0)
    // snippet.hide
    bus.stop()
    try await running.value
    return (report.added, id)
}
