import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Headless Chromium (Debian package `chromium`) showing one page, driven over the DevTools
/// protocol on a pipe (`--remote-debugging-pipe`: commands on its descriptor 3, replies and
/// events on 4, each message ending in a NUL byte) — no port, no WebSocket, nothing to race.
///
/// Blocking: use it from a thread of its own. Checks poll the page's DOM with ``evaluate(_:)``
/// until a condition holds, so they do not depend on the machine's speed.
public final class HeadlessChromium {
    public static let path = "/usr/bin/chromium"
    public static var isInstalled: Bool { access(path, X_OK) == 0 }
    /// Installed, or under `CI`, where a missing browser fails the test instead of skipping it.
    public static var testsEnabled: Bool { isInstalled || ProcessInfo.processInfo.environment["CI"] != nil }
    public static let missingMessage = "needs a headless browser: install the Debian package chromium"

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    private let pid: pid_t
    private let commands: Int32
    private let replies: Int32
    private let profile: String
    private var buffer: [UInt8] = []
    private var lastID = 0
    private var session: String?
    private var closed = false

    /// Starts the browser on `url` with its own profile in a temporary directory (as root it
    /// needs `--no-sandbox`).
    public init(url: String, width: Int = 1280, height: Int = 1000) throws {
        profile = FileManager.default.temporaryDirectory.appendingPathComponent("switchyard-chromium-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: profile, withIntermediateDirectories: true)
        var toBrowser: [Int32] = [0, 0]
        var fromBrowser: [Int32] = [0, 0]
        guard pipe(&toBrowser) == 0, pipe(&fromBrowser) == 0 else { throw Failure(description: "pipe: \(String(cString: strerror(errno)))") }
        // Above 4, so handing them over as 3 and 4 cannot overwrite one with the other.
        let ends = [toBrowser[0], toBrowser[1], fromBrowser[0], fromBrowser[1]].map { descriptor in
            let moved = fcntl(descriptor, F_DUPFD_CLOEXEC, 10)
            Glibc.close(descriptor)
            return moved
        }
        let environment = ProcessInfo.processInfo.environment.map { "\($0.key)=\($0.value)" }
        do {
            pid = try ProcessSpawner.spawn(
                [Self.path, "--headless", "--disable-gpu", "--no-sandbox", "--user-data-dir=\(profile)", "--remote-debugging-pipe",
                 "--window-size=\(width),\(height)", "--no-first-run", "--no-default-browser-check", "--disable-extensions",
                 "--hide-scrollbars", url],
                environment: environment, output: profile + "/chromium.log", descriptors: [(ends[0], 3), (ends[3], 4)])
        } catch {
            for end in ends { Glibc.close(end) }
            throw error
        }
        Glibc.close(ends[0])
        Glibc.close(ends[3])
        commands = ends[1]
        replies = ends[2]
    }

    deinit { close() }

    /// Attaches to the page the browser opened.
    public func attach(timeout: Duration = .seconds(60)) throws {
        let deadline = TestDeadline(after: timeout)
        while !deadline.hasPassed {
            let targets = try send("Target.getTargets", deadline: deadline)["targetInfos"] as? [[String: Any]] ?? []
            if let page = targets.first(where: { $0["type"] as? String == "page" }), let id = page["targetId"] as? String {
                session = try send("Target.attachToTarget", ["targetId": id, "flatten": true], deadline: deadline)["sessionId"] as? String
                return
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
        throw Failure(description: "the browser opened no page; its log:\n\(log)")
    }

    /// The value of a JavaScript expression in the page (JSON-like: strings, numbers, arrays).
    public func evaluate(_ expression: String, timeout: Duration = .seconds(30)) throws -> Any? {
        let (value, exception) = try evaluateOnce(expression, timeout: timeout)
        if let exception { throw Failure(description: "\(expression) threw \(exception)") }
        return value
    }

    /// Evaluates `expression` until it is `true`; `false` when `timeout` (scaled) passes first.
    /// An expression that throws is tried again, since on a loaded machine the page may still
    /// be loading (no `document.body` yet); if it still throws when the time is up, that is
    /// thrown. A broken connection to the browser is thrown at once.
    public func wait(until expression: String, timeout: Duration = .seconds(60)) throws -> Bool {
        let deadline = TestDeadline(after: timeout)
        while true {
            let (value, exception) = try evaluateOnce(expression, timeout: .seconds(30))
            if exception == nil, value as? Bool == true { return true }
            if deadline.hasPassed {
                if let exception { throw Failure(description: "\(expression) threw \(exception)") }
                return false
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
    }

    /// One `Runtime.evaluate`: the value, or the exception the page's script threw.
    private func evaluateOnce(_ expression: String, timeout: Duration) throws -> (value: Any?, exception: Any?) {
        let result = try send("Runtime.evaluate", ["expression": expression, "returnByValue": true], session: session,
                              deadline: TestDeadline(after: timeout))
        return ((result["result"] as? [String: Any])?["value"], result["exceptionDetails"])
    }

    /// Lays the page out as on a device `width` × `height` CSS pixels (`mobile`: a phone's
    /// viewport), which a headless window narrower than 500 pixels cannot show.
    public func emulate(width: Int, height: Int, mobile: Bool) throws {
        _ = try send("Emulation.setDeviceMetricsOverride",
                     ["width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile],
                     session: session, deadline: TestDeadline(after: .seconds(30)))
    }

    /// Writes a PNG of the window to `path`.
    public func screenshot(to path: String) throws {
        let result = try send("Page.captureScreenshot", ["format": "png"], session: session, deadline: TestDeadline(after: .seconds(60)))
        guard let text = result["data"] as? String, let data = Data(base64Encoded: text) else {
            throw Failure(description: "no screenshot in \(result.keys)")
        }
        try data.write(to: URL(fileURLWithPath: path))
    }

    /// What the browser wrote on stdout and stderr.
    public var log: String {
        (try? String(contentsOfFile: profile + "/chromium.log", encoding: .utf8)) ?? ""
    }

    /// Kills the browser's process group and removes its profile; safe to call twice.
    public func close() {
        guard !closed else { return }
        closed = true
        kill(-pid, SIGKILL)
        var status: Int32 = 0
        _ = waitpid(pid, &status, 0)
        Glibc.close(commands)
        Glibc.close(replies)
        try? FileManager.default.removeItem(atPath: profile)
    }

    /// Sends one command and returns its `result`, skipping the events that come before it.
    private func send(_ method: String, _ parameters: [String: Any] = [:], session: String? = nil, deadline: TestDeadline) throws -> [String: Any] {
        lastID += 1
        let id = lastID
        var message: [String: Any] = ["id": id, "method": method, "params": parameters]
        if let session { message["sessionId"] = session }
        var bytes = [UInt8](try JSONSerialization.data(withJSONObject: message))
        bytes.append(0)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.write(commands, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw Failure(description: "the browser stopped reading commands; its log:\n\(log)") }
            written += count
        }
        while true {
            let reply = try nextMessage(deadline: deadline, waitingFor: method)
            guard reply["id"] as? Int == id else { continue }
            if let error = reply["error"] { throw Failure(description: "\(method): \(error)") }
            return reply["result"] as? [String: Any] ?? [:]
        }
    }

    private func nextMessage(deadline: TestDeadline, waitingFor method: String) throws -> [String: Any] {
        while true {
            if let end = buffer.firstIndex(of: 0) {
                let message = Array(buffer[..<end])
                buffer.removeSubrange(...end)
                return (try? JSONSerialization.jsonObject(with: Data(message))) as? [String: Any] ?? [:]
            }
            guard !deadline.hasPassed else { throw Failure(description: "no reply to \(method) in time; the browser's log:\n\(log)") }
            var descriptor = pollfd(fd: replies, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, deadline.remainingMilliseconds(cap: 200)) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            let count = chunk.withUnsafeMutableBytes { read(replies, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw Failure(description: "the browser exited; its log:\n\(log)") }
            buffer += chunk[..<count]
        }
    }
}
