import Foundation
import LoggerPlugin
import SwitchyardBus
import SwitchyardBusTesting
import Testing


private func temporaryPath(_ name: String) -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("switchyard-logger-\(UUID().uuidString)-\(name)").path
}

struct LoggerFormatTests {
    private let action = BusAction(type: "gps/fix", payload: ["lat": 52.5, "mode": 3], id: 42,
                                   time: Date(timeIntervalSince1970: 1_700_000_000.125), source: "gps", cause: 41)

    /// A text line has time, id, type, source, cause and the payload.
    @Test func textLine() {
        #expect(LogFormat.text.line(for: action) == #"2023-11-14T22:13:20.125Z #42 gps/fix source=gps cause=#41 {"lat":52.5,"mode":3}"#)
    }

    /// Lines written one after another through one remembered time are each the line of its
    /// own action: a repeated time, a new one, and a year without four digits.
    @Test func linesShareTheirTimeTextOnlyWhenTheTimeRepeats() {
        var later = action
        later.time = Date(timeIntervalSince1970: 1_700_000_001.5)
        var farFuture = action
        farFuture.time = Date(timeIntervalSince1970: 253_402_300_800)
        var times = TimestampText()
        for next in [action, action, later, farFuture, action] {
            var bytes: [UInt8] = []
            LogFormat.text.append(next, times: &times, to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == LogFormat.text.line(for: next))
        }
        #expect(LogFormat.text.line(for: farFuture).hasPrefix("10000-01-01T00:00:00.000Z #42 "))
    }

    /// A JSON line is the whole action, readable back as the same action.
    @Test func jsonLineRoundTrips() throws {
        let line = LogFormat.json.line(for: action)
        let decoded = try BusAction(json: JSON(parsing: line), defaultSource: "x")
        #expect(decoded == action)
    }
}

struct LoggerBusTests {
    /// Matching actions are appended to a file in order; others are left out.
    @Test func writesMatchingActionsToFile() async throws {
        let path = temporaryPath("actions.jsonl")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let bus = try TestBus(configuration: """
            {"plugins": [{"name": "log", "kind": "logger", "format": "json", "to": "\(path)", "actions": "gps/*"}]}
            """, registry: PluginRegistry(LoggerPlugin.self), logLevel: .warning)
        #expect(await bus.start())
        for index in 0..<50 {
            await bus.dispatch(index % 2 == 0 ? "gps/fix" : "other/thing", .integer(Int64(index)))
        }
        try await bus.stop()
        #expect(bus.logLines == [])
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        let actions = try lines.map { try BusAction(json: JSON(parsing: String($0)), defaultSource: "?") }
        #expect(actions.map(\.payload) == stride(from: 0, to: 50, by: 2).map { .integer(Int64($0)) })
        #expect(actions.allSatisfy { $0.type == "gps/fix" })
    }

    /// A stalled output never holds up the bus: actions are dropped and the drop is logged.
    @Test func stalledOutputDropsInsteadOfBlocking() async throws {
        var descriptors: [Int32] = [0, 0]
        #expect(pipe(&descriptors) == 0)
        // Both ends stay open until the test ends, so the descriptor number the logger opens
        // through /proc cannot be reused by a concurrent test.
        defer {
            close(descriptors[0])
            close(descriptors[1])
        }
        let bus = try TestBus(configuration: """
            {"plugins": [{"name": "log", "kind": "logger", "to": "/proc/self/fd/\(descriptors[1])", "bufferSize": 4}]}
            """, registry: PluginRegistry(LoggerPlugin.self), logLevel: .warning)
        #expect(await bus.start())
        // Nobody reads the pipe: after 64 KiB the writer blocks, yet every dispatch completes.
        let padding = String(repeating: "x", count: 1024)
        for index in 0..<2000 {
            await bus.dispatch("flood/line", ["n": .integer(Int64(index)), "pad": .string(padding)])
        }
        #expect(bus.state == .object([:]))
        #expect(await bus.waitForLog(containing: "dropped"))
        // Drain the pipe so the writer can finish and the bus stop cleanly.
        let readEnd = descriptors[0]
        let reader = Task.detached {
            var buffer = [UInt8](repeating: 0, count: 65536)
            while read(readEnd, &buffer, buffer.count) > 0 {}
        }
        try await bus.stop()
        _ = reader
    }

    /// Bad settings are reported with their key paths.
    @Test(arguments: [
        (#"{"format": "xml"}"#, "plugins[0].format"),
        (#"{"actions": "GPS"}"#, "plugins[0].actions"),
        (#"{"to": "/no/such/directory/log.txt"}"#, "plugins[0].to"),
        (#"{"bufferSize": 0}"#, "plugins[0].bufferSize"),
    ])
    func invalidSettings(json: String, path: String) throws {
        let values = try JSON(parsing: json).objectValue ?? [:]
        #expect(throws: PluginSettingsError.self) {
            _ = try LoggerPlugin(name: "log", settings: PluginSettings(values, path: "plugins[0]"))
        }
        do {
            _ = try LoggerPlugin(name: "log", settings: PluginSettings(values, path: "plugins[0]"))
        } catch let error as PluginSettingsError {
            #expect(error.problems.contains { $0.path == path })
        }
    }
}
