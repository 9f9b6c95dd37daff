import Foundation
import SwitchyardTestSupport
@testable import Switchyard
@testable import SwitchyardBus
@testable import SwitchyardDoors
import SwitchyardIO

extension ControlTestClient {
    /// The next line as JSON.
    /// - Throws: ``ControlTestClient/Failure`` when the stream ended or no line came in time;
    ///   the parser's error when the line is not JSON.
    func readJSON(timeout: Duration = .seconds(30)) throws -> JSON {
        guard let line = try readLine(timeout: timeout) else { throw Failure(description: "the connection closed") }
        return try JSON(parsing: line)
    }

    /// Sends one request line and parses its reply.
    func requestJSON(_ line: String) throws -> JSON {
        try JSON(parsing: request(line))
    }
}

/// A running bus with a journal and a control socket in a temporary directory.
struct ControlTestBus: Sendable {
    let directory: JournalTestDirectory
    let bus: Bus
    let running: Task<Void, any Error>

    var socketPath: String { directory.path + "/data/control.sock" }

    static func start(plugins: String = #"[{"name": "counter", "kind": "counter"}]"#, limits: ControlLimits = ControlLimits(),
                      journal: String = #"{"fsync": "never"}"#, log: LogSink = LogSink(minimumLevel: .error)) async throws -> ControlTestBus {
        let directory = try JournalTestDirectory()
        let registry = journalRegistry()
        let configuration = try journaledConfiguration(directory.path + "/data", plugins: plugins, journal: journal, registry: registry)
        let bus = try Bus(configuration: configuration, registry: registry, services: BusServices(), serving: .doors(controlLimits: limits), log: log)
        let running = Task { try await bus.run() }
        guard await bus.waitUntilReady() else {
            try await running.value
            throw ControlTestClient.Failure(description: "the bus did not start")
        }
        return ControlTestBus(directory: directory, bus: bus, running: running)
    }

    func connect() async throws -> ControlTestClient {
        let path = socketPath
        return try await onThread { try ControlTestClient(path: path) }
    }

    func stop() async throws {
        bus.stop()
        try await running.value
    }
}
