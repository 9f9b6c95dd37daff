import Foundation
import Synchronization
@testable import Switchyard
@testable import SwitchyardBus

/// A temporary directory with a short path (socket paths are limited to 107 bytes), removed
/// when the test ends.
final class JournalTestDirectory: Sendable {
    let path: String

    init() throws {
        var template = Array("/tmp/sy-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw POSIXError(.EIO) }
        path = String(cString: made)
    }

    /// `<path>/journal`.
    var journal: String { path + "/journal" }

    func write(_ name: String, _ text: String) throws {
        try text.write(toFile: path + "/" + name, atomically: false, encoding: .utf8)
    }

    func files(in subdirectory: String = "journal") -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path + "/" + subdirectory)) ?? []).sorted()
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// A journaled action with a fixed time, as the bus would stamp it.
func journaled(_ id: UInt64, _ type: String = "test/n", payload: JSON = .null, source: String = "test") -> BusAction {
    BusAction(type: type, payload: payload, id: id, time: Date(timeIntervalSince1970: 1_700_000_000.125 + Double(id)),
              source: source, cause: id > 1 ? id - 1 : nil)
}

/// The text of segment lines for `actions`.
func segmentText(_ actions: [BusAction]) -> String {
    var bytes: [UInt8] = []
    for action in actions { JournalLine.append(action, to: &bytes) }
    return String(decoding: bytes, as: UTF8.self)
}

/// A bus configuration whose data directory is `directory`.
func journaledConfiguration(_ directory: String, plugins: String = "[]", journal: String = #"{"fsync": "always", "snapshotEvery": 1000}"#,
                            registry: PluginRegistry = testRegistry()) throws -> BusConfiguration {
    try BusConfiguration.parse(
        #"{"bus": {"name": "journaled", "dataDirectory": "\#(directory)", "journal": \#(journal), "stopTimeout": 30}, "plugins": \#(plugins)}"#,
        file: "journal.json", environment: [:], knownKinds: registry.kinds
    )
}

/// Sums the `n` payloads of `count/add` actions: a slice whose value depends on every action
/// and their order.
struct CounterPlugin: Plugin {
    static let kind = "counter"
    static let summary = "Keeps a running total and the last value."
    static let settingDescriptions: [SettingDescription] = []
    static let seen = Mutex([String: Int]())

    init(name: String, settings: PluginSettings) throws {
        try settings.finish()
    }

    var subscription: ActionSubscription? { ActionSubscription(TypePattern("count/*")!, bufferSize: 100_000) }

    var slice: StateSlice? {
        StateSlice(initial: ["total": 0, "last": .null, "count": 0]) { slice, action in
            guard action.type == "count/add" else { return }
            let n = action.payload.intValue ?? 0
            slice["total"] = .integer(Int64((slice["total"]?.intValue ?? 0) + n))
            slice["count"] = .integer(Int64((slice["count"]?.intValue ?? 0) + 1))
            slice["last"] = .integer(Int64(n))
        }
    }

    /// Counts the actions it is handed, by plugin name: replayed actions must not arrive here.
    func run(context: PluginContext) async throws {
        for await _ in context.actions {
            Self.seen.withLock { $0[context.name, default: 0] += 1 }
        }
    }
}

func journalRegistry() -> PluginRegistry {
    var registry = testRegistry()
    registry.register(CounterPlugin.self)
    return registry
}

/// Runs `bus` until `body` is done, then stops it and waits for its end.
func whileRunning(_ bus: Bus, _ body: () async throws -> Void) async throws {
    let running = Task { try await bus.run() }
    await bus.waitUntilReady()
    try await body()
    bus.stop()
    try await running.value
}
