import Foundation
import SwitchyardTestSupport
import Synchronization
@testable import Switchyard
@testable import SwitchyardBus
@testable import SwitchyardDoors

/// A blocking control-socket client for tests. Its calls block their thread, so tests run
/// them through ``blocking(_:)`` on a thread of their own, never on the cooperative pool.
final class ControlTestClient: Sendable {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let descriptor: Int32
    private let buffer = Mutex([UInt8]())

    init(path: String) throws {
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        let (address, length) = try UnixSocket.address(path)
        var target = address
        let connected = withUnsafePointer(to: &target) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, length) }
        }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(descriptor)
            throw Failure(description: "connect \(path): \(reason)")
        }
    }

    deinit {
        Glibc.close(descriptor)
    }

    func write(_ text: String) throws {
        try write(Array(text.utf8))
    }

    func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw Failure(description: "send: \(String(cString: strerror(errno)))") }
            offset += sent
        }
    }

    /// The next line, `nil` at the end of the stream; throws after `timeout` (scaled).
    func readLine(timeout: Duration = .seconds(30)) throws -> String? {
        let deadline = TestDeadline(after: timeout)
        while true {
            let line: String?? = buffer.withLock { buffer in
                guard let newline = buffer.firstIndex(of: 10) else { return nil }
                defer { buffer.removeSubrange(...newline) }
                return .some(String(decoding: buffer[..<newline], as: UTF8.self))
            }
            if let line { return line }
            guard !deadline.hasPassed else { throw Failure(description: "no line within \(deadline.budget)") }
            var interest = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&interest, 1, deadline.remainingMilliseconds())
            guard interest.revents != 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 64 << 10)
            let count = recv(descriptor, &chunk, chunk.count, 0)
            if count <= 0 { return nil }
            buffer.withLock { $0.append(contentsOf: chunk[..<count]) }
        }
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
        shutdown(descriptor, Int32(SHUT_WR))
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
