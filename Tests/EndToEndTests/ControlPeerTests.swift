import Foundation
import SwitchyardTestSupport
import Testing

/// Only the bus's own user (and users it allows) may use its control socket, and a client
/// never sends to a socket another user serves.
@Suite(.serialized, .enabled(if: SecondUser.testsEnabled, "\(SecondUser.missingMessage)"))
struct ControlPeerTests {
    /// A bus run by another user answers root's connection with permission-denied, unless bus.control.allowUIDs lists root.
    @Test(arguments: [false, true])
    func anotherUsersConnectionIsRefused(allowed: Bool) async throws {
        let directory = try TemporaryDirectory()
        try SecondUser.own(directory.url.path)
        let control = allowed ? #", "control": {"allowUIDs": [0]}"# : ""
        let config = try directory.write("config.json", #"{"bus": {"name": "peer", "dataDirectory": "data"\#(control)}, "plugins": []}"#)
        let log = directory.url.appendingPathComponent("bus.log").path
        let bus = try SecondUser.start([try SecondUser.executable(in: directory.url), "run", config], in: directory.url, log: log)
        defer { bus.signalAndWait(SIGTERM) }
        let socket = directory.url.appendingPathComponent("data/control.sock").path
        let deadline = ContinuousClock.now.advanced(by: .seconds(30))
        while !((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains("ready:"), ContinuousClock.now < deadline, !bus.hasExited {
            try await Task.sleep(for: .milliseconds(20))
        }
        let client = try await onThread { try ControlTestClient(path: socket) }
        if allowed {
            let reply = object(try await onThread { try client.request(#"{"op":"state"}"#) })
            #expect(reply["ok"] as? Bool == true, "\(reply)")
        } else {
            // Refused at once: the error line, then the end of the stream.
            let reply = object(try await onThread { try client.readLine() } ?? "")
            #expect((reply["error"] as? [String: Any])?["code"] as? String == "permission-denied", "\(reply)")
            #expect(try await onThread { try client.readLine(timeout: .seconds(10)) } == nil)
        }
    }

    /// `switchyard send` refuses a socket served by another user and sends it nothing.
    @Test func clientRefusesASocketServedByAnotherUser() async throws {
        let directory = try TemporaryDirectory()
        try SecondUser.own(directory.url.path)
        let socket = directory.url.appendingPathComponent("impostor.sock").path
        let received = directory.url.appendingPathComponent("received").path
        let script = """
            import socket, os
            s = socket.socket(socket.AF_UNIX); s.bind("\(socket)"); os.chmod("\(socket)", 0o777); s.listen(1)
            c, _ = s.accept(); c.settimeout(5)
            data = b""
            try:
                while True:
                    chunk = c.recv(65536)
                    if not chunk: break
                    data += chunk
            except Exception: pass
            open("\(received)", "wb").write(data)
            """
        let log = directory.url.appendingPathComponent("impostor.log").path
        let impostor = try SecondUser.start(["/usr/bin/python3", "-c", script], in: directory.url, log: log)
        defer { impostor.terminate() }
        let deadline = ContinuousClock.now.advanced(by: .seconds(30))
        while !FileManager.default.fileExists(atPath: socket), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        let client = try SwitchyardProcess(["send", "secret/thing", #"{"password": "hunter2"}"#, "--socket", socket], directory: directory.url)
        #expect(await client.exitStatus() == 1)
        #expect(client.stderr.contains("refusing to talk to \(socket): it is served by uid \(try SecondUser.required().uid)"), "\(client.stderr)")
        impostor.waitForExitStatus()
        #expect(((try? Data(contentsOf: URL(fileURLWithPath: received))) ?? Data("missing".utf8)).isEmpty)
    }
}
