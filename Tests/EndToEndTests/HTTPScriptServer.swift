import Foundation
import SwitchyardTestSupport
import Testing

/// The network-fetch tests' scripted HTTP server (`scripted_server.py`) on 127.0.0.1, for
/// buses started as processes: routes answer from a script (see the script's doc string).
final class HTTPScriptServer: Sendable {
    static let python = "/usr/bin/python3"

    let port: Int
    private let process: Process

    /// Starts a server answering `routes`, a JSON object `{"/path": [response, …]}` as text.
    /// Cancels the test when python3 is missing, unless `CI` is set: then it fails.
    static func start(routes: String) async throws -> HTTPScriptServer {
        guard FileManager.default.isExecutableFile(atPath: python) else {
            if ProcessInfo.processInfo.environment["CI"] != nil {
                throw ControlE2EFailure(description: "\(python) is missing: install the Debian package python3")
            }
            try Test.cancel("needs \(python): install the Debian package python3")
        }
        let script = SwitchyardProcess.packageRoot.appendingPathComponent("Tests/NetworkFetchPluginTests/Support/scripted_server.py")
        let (process, port) = try await startAnnouncingPort(python, [script.path, #"{"routes": \#(routes)}"#], name: "the scripted server")
        return HTTPScriptServer(port: port, process: process)
    }

    private init(port: Int, process: Process) {
        self.port = port
        self.process = process
    }

    deinit {
        process.signalAndWait(SIGTERM)
    }

    /// `http://127.0.0.1:PORT` followed by `path`.
    func url(_ path: String) -> String {
        "http://127.0.0.1:\(port)\(path)"
    }
}
