import Foundation
import SwitchyardBus
import SwitchyardTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A real HTTP server on 127.0.0.1 for one test: `scripted_server.py` run by `/usr/bin/python3`
/// on a free port, answering from a script of routes (see the script's doc string). Stopped
/// (killed and reaped) by ``stop()``.
final class ScriptedServer {
    static let python = "/usr/bin/python3"

    let port: Int
    private let process: Process

    /// Starts a server answering `routes` (`{"/path": [response, …]}`).
    ///
    /// Cancels the test (a skip) when python3 is missing, unless the environment variable
    /// `CI` is set: then the test fails.
    static func start(routes: JSON) async throws -> ScriptedServer {
        guard FileManager.default.isExecutableFile(atPath: python) else {
            if ProcessInfo.processInfo.environment["CI"] != nil {
                throw ServerError("\(python) is missing: install the Debian package python3")
            }
            try Test.cancel("needs \(python): install the Debian package python3")
        }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("scripted_server.py")
        let (process, port) = try await startAnnouncingPort(
            python, [script.path, JSON.object(["routes": routes]).serialized()], name: "the scripted server")
        return ScriptedServer(port: port, process: process)
    }

    private init(port: Int, process: Process) {
        self.port = port
        self.process = process
    }

    deinit {
        stop()
    }

    /// `http://127.0.0.1:PORT` followed by `path`.
    func url(_ path: String) -> String {
        "http://127.0.0.1:\(port)\(path)"
    }

    /// Kills the server and waits for it to exit; later calls do nothing.
    func stop() {
        process.signalAndWait(SIGKILL)
    }

    /// Every request received so far, in arrival order.
    func requests() async throws -> [JSON] {
        try await control("/_control/requests")["requests"]?.arrayValue ?? []
    }

    /// The most requests that were in flight at once.
    func maxInFlight() async throws -> Int {
        try await control("/_control/requests")["maxInFlight"]?.intValue ?? -1
    }

    /// Waits until `count` requests for `path` are in `state` (`held`, `aborted`, `done`, or
    /// any state when `nil`); throws after 10 s.
    func awaitRequests(_ path: String, count: Int, state: String? = nil) async throws {
        var query = "path=\(path)&count=\(count)"
        if let state { query += "&state=\(state)" }
        let reply = try await control("/_control/await?\(query)", expectOK: false)
        guard reply["found"]?.intValue ?? 0 >= count else {
            throw ServerError("waited for \(count) \(state ?? "") requests to \(path), found \(reply["found"] ?? nil)")
        }
    }

    /// Lets the oldest held request for `path` answer.
    func release(_ path: String) async throws {
        let reply = try await control("/_control/release?path=\(path)")
        guard reply["released"] == true else { throw ServerError("no held request for \(path) to release") }
    }

    private func control(_ path: String, expectOK: Bool = true) async throws -> JSON {
        let (data, response) = try await URLSession.shared.data(from: URL(string: url(path))!)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        if expectOK && status != 200 { throw ServerError("\(path) answered \(status)") }
        return try JSON(parsing: data)
    }
}

/// A problem with the test server itself.
struct ServerError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
