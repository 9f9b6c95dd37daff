import Foundation
@testable import Switchyard
@testable import SwitchyardBus
import Testing

/// A journal is restored only into a bus with the same state slices, unless the bus is told.
struct SliceManifestTests {
    private func makeBus(_ directory: String, plugins: String, accepting: Bool = false) throws -> Bus {
        try Bus(configuration: journaledConfiguration(directory, plugins: plugins, registry: journalRegistry()), registry: journalRegistry(),
                services: BusServices(acceptsSliceChanges: accepting), log: LogSink(minimumLevel: .error))
    }

    private func runOnce(_ bus: Bus) async throws {
        let running = Task { try await bus.run() }
        await bus.waitUntilReady()
        await bus.dispatch(BusAction(type: "count/add", payload: ["n": 2], source: "test"))
        bus.stop()
        try await running.value
    }

    /// Another slice set is refused with both lists and the way to accept; told, the bus restores and records the new set.
    @Test func differentSlicesAreRefusedUnlessAccepted() async throws {
        let directory = try temporaryDirectory()
        try await runOnce(try makeBus(directory, plugins: #"[{"name": "total", "kind": "counter"}]"#))
        #expect(try String(contentsOfFile: directory + "/slices.json", encoding: .utf8) == #"{"slices":["total"]}"# + "\n")

        let other = #"[{"name": "sum", "kind": "counter"}]"#
        let error = #expect(throws: JournalError.self) { try makeBus(directory, plugins: other) }
        let message = error?.description ?? ""
        #expect(message.contains("written by a bus with the slices total; this bus has sum"))
        #expect(message.contains("drop the state of total and start sum empty"))
        #expect(message.contains("--accept-slice-changes"))
        #expect(error?.isCorruption == false)

        try await runOnce(try makeBus(directory, plugins: other, accepting: true))
        #expect(try String(contentsOfFile: directory + "/slices.json", encoding: .utf8) == #"{"slices":["sum"]}"# + "\n")
        // Accepted once, the new set is the journal's: the next start needs no flag.
        try await runOnce(try makeBus(directory, plugins: other))
    }

    /// The same slices in another order, or plugins without slices, restore as before.
    @Test func sameSlicesRestore() async throws {
        let directory = try temporaryDirectory()
        try await runOnce(try makeBus(directory, plugins: #"[{"name": "a", "kind": "counter"}, {"name": "b", "kind": "counter"}]"#))
        try await runOnce(try makeBus(directory, plugins: #"[{"name": "b", "kind": "counter"}, {"name": "a", "kind": "counter"}, {"name": "r", "kind": "recorder"}]"#))
    }

    private func temporaryDirectory() throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("switchyard-slices-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path
    }
}
