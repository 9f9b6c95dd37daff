import Foundation
import SwitchyardTestSupport
import Synchronization
@testable import Switchyard
@testable import SwitchyardBus
@testable import SwitchyardDoors
import SwitchyardIO

/// A blocking control-socket client for tests, on the one line client the command line uses
/// too. Its calls block their thread, so tests run them through ``blocking(_:)`` on a thread
/// of their own, never on the cooperative pool.
final class ControlTestClient: Sendable {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private let connection: LineSocketClient
    var descriptor: Int32 { connection.descriptor }

    init(path: String) throws {
        do {
            connection = try LineSocketClient(path: path)
        } catch {
            throw Failure(description: "connect \(path): \(error.description)")
        }
    }

    func write(_ text: String) throws {
        try write(Array(text.utf8))
    }

    func write(_ bytes: [UInt8]) throws {
        try connection.write(bytes)
    }

    /// The next line, `nil` at the end of the stream; throws after `timeout` (scaled).
    func readLine(timeout: Duration = .seconds(30)) throws -> String? {
        try connection.readLine(timeout: TestDeadline(after: timeout).budget).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The next line as JSON.
    func readJSON(timeout: Duration = .seconds(30)) throws -> JSON {
        guard let line = try readLine(timeout: timeout) else { throw Failure(description: "the connection closed") }
        return try JSON(parsing: line)
    }

    /// Sends one request line and reads its reply.
    func request(_ line: String) throws -> JSON {
        try write(line + "\n")
        return try readJSON()
    }

    /// Half-closes: the server sees the end of the requests.
    func finishWriting() {
        connection.finishWriting()
    }
}

/// Runs `body` on a thread of its own and returns its result.
func blocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try body() }) }
        thread.start()
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
        return try await blocking { try ControlTestClient(path: path) }
    }

    func stop() async throws {
        bus.stop()
        try await running.value
    }
}
