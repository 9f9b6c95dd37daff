import Foundation
import Glibc
import SwitchyardTestSupport
import Synchronization
import Testing

/// A real `nats-server` with JetStream, started by a test on a free port with its own store
/// directory, and stopped (or restarted on the same port and store) when the test says.
final class NATSServer: Sendable {
    /// Where `nats-server` is installed, if it is.
    static let executable: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let candidates = ["/usr/sbin/nats-server", "/usr/bin/nats-server", "/usr/local/bin/nats-server"]
            + path.split(separator: ":").map { "\($0)/nats-server" }
        return candidates.first { access($0, X_OK) == 0 }
    }()

    /// Suites that start a server run only where it is installed, or where `CI` is set (and
    /// then fail without it).
    static let requirement = Testing.ConditionTrait.enabled(
        if: executable != nil || ProcessInfo.processInfo.environment["CI"] != nil,
        "needs nats-server (Debian package nats-server)"
    )

    struct MissingServer: Error, CustomStringConvertible {
        var description: String { "nats-server is not installed (Debian package nats-server)" }
    }

    let port: Int
    let directory: TemporaryDirectory
    private let arguments: [String]
    private let process = Mutex<Process?>(nil)
    private let output = CapturedBytes()

    /// Starts a server; `arguments` are added to `-js -a 127.0.0.1 -p PORT -sd DIR`.
    init(arguments: [String] = []) async throws {
        port = try unusedLocalPort()
        directory = try TemporaryDirectory()
        self.arguments = arguments
        try await start()
    }

    /// `nats://127.0.0.1:PORT`.
    var url: String { "nats://127.0.0.1:\(port)" }

    /// What the server wrote to stderr.
    var log: String { output.text }

    /// Starts the server and waits until it accepts connections.
    func start() async throws {
        guard let executable = Self.executable else { throw MissingServer() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["-js", "-a", "127.0.0.1", "-p", String(port), "-sd", directory.url.appendingPathComponent("store").path] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        let output = self.output
        pipe.fileHandleForReading.readabilityHandler = { handle in
            output.append(handle.availableData)
        }
        try process.run()
        self.process.withLock { $0 = process }
        if await eventually(interval: .milliseconds(20), { localPortAccepts(port) }) { return }
        Issue.record("nats-server did not accept connections within \(TestTimeouts.scaled(.seconds(30))):\n\(log)")
    }

    /// Stops the server with SIGTERM and waits for it to exit.
    func stop() async {
        guard let process = self.process.withLock({ process in
            defer { process = nil }
            return process
        }) else { return }
        _ = await process.stop(with: SIGTERM)
    }

    deinit {
        process.withLock { $0 }?.signalAndWait(SIGKILL)
    }
}
