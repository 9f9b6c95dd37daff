import Foundation
import SwitchyardBus
import Synchronization
import Testing

struct LogSinkTests {
    private static let time = Date(timeIntervalSince1970: 1_795_339_800.125)

    /// Text lines: the time when asked for, the level, the plugin's name, the message, then metadata.
    @Test(arguments: [
        (LogSink.Level.info, nil, [:], false, "switchyard: info: ready"),
        (.warning, "gps", [:], false, "switchyard: warning: gps: ready"),
        (.error, "gps", ["attempt": "3", "after": "1s"], false, "switchyard: error: gps: ready (after=1s, attempt=3)"),
        (.debug, nil, [:], true, "2026-11-22T09:30:00.125Z switchyard: debug: ready"),
    ] as [(LogSink.Level, String?, [String: String], Bool, String)])
    func textLines(level: LogSink.Level, plugin: String?, metadata: [String: String], timed: Bool, expected: String) {
        #expect(LogSink.line(level, "ready", plugin: plugin, metadata: metadata, format: .text, time: timed ? Self.time : nil) == expected)
    }

    /// JSON lines are one object each with level, time, message, and plugin and metadata when given.
    @Test func jsonLines() throws {
        let line = LogSink.line(.warning, "lost \"fix\"\nagain", plugin: "gps", metadata: ["attempt": "3"], format: .json, time: Self.time)
        #expect(!line.contains("\n"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["level"] as? String == "warning")
        #expect(object["time"] as? String == "2026-11-22T09:30:00.125Z")
        #expect(object["message"] as? String == "lost \"fix\"\nagain")
        #expect(object["plugin"] as? String == "gps")
        #expect(object["metadata"] as? [String: String] == ["attempt": "3"])
        let bare = try #require(try JSONSerialization.jsonObject(with: Data(LogSink.line(.info, "x", plugin: nil, metadata: [:], format: .json, time: Self.time).utf8)) as? [String: Any])
        #expect(bare["plugin"] == nil && bare["metadata"] == nil)
    }

    /// A sink writes its minimum level and everything above it, nothing below.
    @Test(arguments: LogSink.Level.allCases)
    func levelFilter(minimum: LogSink.Level) {
        let lines = Mutex<[String]>([])
        let sink = LogSink(minimumLevel: minimum) { line in lines.withLock { $0.append(line) } }
        for level in LogSink.Level.allCases { sink.write(level, level.rawValue) }
        let written = lines.withLock { $0 }.map { $0.split(separator: " ").last.map(String.init) ?? "" }
        #expect(written == LogSink.Level.allCases.filter { $0 >= minimum }.map(\.rawValue))
        #expect(LogSink.Level.allCases.allSatisfy { sink.isEnabled($0) == ($0 >= minimum) })
    }

    /// The sink stamps lines with its clock: always in JSON, in text only when asked to.
    @Test func sinkUsesItsClock() {
        let lines = Mutex<[String]>([])
        let text = LogSink(timestamps: true, now: { Self.time }) { line in lines.withLock { $0.append(line) } }
        text.write(.info, "hello", plugin: "log", metadata: [:])
        let json = LogSink(format: .json, now: { Self.time }) { line in lines.withLock { $0.append(line) } }
        json.write(.info, "hello")
        #expect(lines.withLock { $0 } == [
            "2026-11-22T09:30:00.125Z switchyard: info: log: hello",
            #"{"level":"info","message":"hello","time":"2026-11-22T09:30:00.125Z"}"#,
        ])
    }

    /// `bus.logLevel` is read from the configuration; a wrong level is a problem with its key path.
    @Test func busLogLevelSetting() throws {
        let registry = PluginRegistry()
        let configuration = try BusConfiguration.parse(#"{"bus": {"logLevel": "debug"}, "plugins": []}"#, file: "x.json", environment: [:], registry: registry)
        #expect(configuration.bus.logLevel == .debug)
        #expect(try BusConfiguration.parse(#"{"plugins": []}"#, file: "x.json", environment: [:], registry: registry).bus.logLevel == .info)
        #expect {
            _ = try BusConfiguration.parse(#"{"bus": {"logLevel": "loud"}, "plugins": []}"#, file: "x.json", environment: [:], registry: registry)
        } throws: { error in
            "\(error)".contains("bus.logLevel") && "\(error)".contains("trace")
        }
    }

    /// Writing a line leaves nothing behind: the 1,000th line reaches the output from the same
    /// stack depth as the first. (The output closure, kept as a lock's value, was wrapped in two
    /// more thunks by every line: 64 bytes kept for good and two frames deeper each time.)
    @Test func writingLeavesNothingBehind() {
        let depths = Mutex<[UInt]>([])
        let sink = LogSink(minimumLevel: .info) { _ in
            var marker = 0
            let address = withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
            depths.withLock { $0.append(address) }
        }
        for index in 0..<1_000 { sink.write(.info, "line \(index)") }
        let seen = depths.withLock { $0 }
        #expect(seen.count == 1_000)
        #expect(seen.first == seen.last, "the output was called \(Int(bitPattern: seen.first ?? 0) - Int(bitPattern: seen.last ?? 0)) bytes deeper after 1,000 lines")
    }
}
