#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization

/// A real gpsd for one test (the GPSD plugin tests and the end-to-end replay tests): fed with a capture by `gpsfake`, or bare with no device.
///
/// Each instance gets a free TCP port and a temporary directory (its `TMPDIR`, where gpsfake
/// puts its control socket and the log). The process runs in a process group of its own so
/// ``stop()`` can SIGKILL gpsfake and the gpsd it started by that group's id — gpsfake ignores
/// SIGTERM — then removes the directory and gpsd's shared-memory segment for that port.
public final class GPSDProcess: Sendable {
    /// Why a gpsd could not be started.
    public struct StartError: Error, CustomStringConvertible {
        public let description: String
    }

    public static let gpsfake = "/usr/bin/gpsfake"
    public static let gpsd = "/usr/sbin/gpsd"
    /// Debian's Python: the one with the `gps` module gpsfake imports.
    public static let python = "/usr/bin/python3"

    /// Whether gpsd and gpsfake are installed.
    public static var isInstalled: Bool {
        [gpsfake, gpsd, python].allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Whether tests that need gpsd run: when it is installed, and always under CI (where a
    /// missing gpsd must fail, not skip).
    public static var testsEnabled: Bool {
        isInstalled || ProcessInfo.processInfo.environment["CI"] != nil
    }

    /// The message for a skipped test.
    public static let missingMessage = "needs gpsd and gpsfake: install the Debian packages gpsd gpsd-clients"

    /// The TCP port gpsd listens on.
    public let port: Int
    /// The temporary directory holding gpsfake's socket and the process log.
    public let directory: String
    private let processGroup: pid_t
    private let stopped = Mutex(false)
    /// Our end of a held gpsfake's stdin, and how many sentences to let through on release.
    private let hold: (socket: Int32, sentences: Int)?

    private init(port: Int, directory: String, processGroup: pid_t, hold: (socket: Int32, sentences: Int)?) {
        self.port = port
        self.directory = directory
        self.processGroup = processGroup
        self.hold = hold
    }

    /// Starts gpsfake playing `capture` (a path) on `port` (a free one when `nil`), one
    /// sentence per `cycle` seconds; `once` plays it a single time, otherwise it loops.
    ///
    /// gpsfake's own `-n` makes gpsd open the fake device at once instead of when the first
    /// client watches. (Passing `-o=-n` instead hands gpsd the characters `-` and `n` as device
    /// paths.) gpsd reports only what arrives after a client's watch, so a `held` capture —
    /// played once — waits before its first sentence until ``release()``: gpsfake's `-i` asks
    /// for a line on stdin before each sentence, and release writes them all.
    public static func gpsfake(capture: String, cycle: Double, once: Bool, held: Bool = false, port: Int? = nil) throws -> GPSDProcess {
        let port = try port ?? unusedLocalPort()
        var arguments = [python, gpsfake, "-q", "-n", "-P", String(port), "-c", String(cycle)]
        if once { arguments.append("-1") }
        if held { arguments.append("-i") }
        arguments.append(capture)
        guard held else { return try spawn(port: port, environment: [:]) { _ in arguments } }
        let lines = try String(contentsOfFile: capture, encoding: .isoLatin1).split(whereSeparator: \.isNewline).count
        return try spawn(port: port, environment: [:], hold: lines + 16) { _ in arguments }
    }

    /// Lets a held gpsfake play its capture.
    public func release() {
        guard let hold else { return }
        let newlines = [UInt8](repeating: UInt8(ascii: "\n"), count: hold.sentences)
        _ = newlines.withUnsafeBytes { Glibc.send(hold.socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Starts a bare gpsd with no device on a free port (with a control socket in its
    /// directory: gpsd refuses to run with neither a device nor one).
    public static func bare() throws -> GPSDProcess {
        let port = try unusedLocalPort()
        return try spawn(port: port, environment: ["GPSD_SHM_KEY": sharedMemoryKeyText(port: port)]) { directory in
            [gpsd, "-N", "-n", "-S", String(port), "-F", directory + "/control.sock"]
        }
    }

    /// Waits until gpsd accepts connections on its port, so a test's first connection
    /// attempt succeeds; `false` if it never does within a generous real-time bound.
    public func waitUntilListening() async -> Bool {
        let port = port
        return await eventually(interval: .milliseconds(20)) { localPortAccepts(port) }
    }


    /// Starts a held gpsfake (see ``gpsfake(capture:cycle:once:held:port:)``) and returns it once
    /// gpsd accepts connections and lists gpsfake's device, so a client that watches next sees
    /// the device and a capture released then is read. gpsd listens about a second before
    /// gpsfake adds its device, and under load gpsfake sometimes never added it (a watch then
    /// saw no device for good and the released sentences went nowhere); such a start is
    /// stopped and made again, up to `attempts` times, on `port` when one is given (a gpsd
    /// restarted where a client reconnects) or a free one.
    /// - Throws: ``StartError`` with gpsfake's output when no start got a device listed.
    public static func gpsfakeWithDevice(capture: String, cycle: Double, once: Bool, attempts: Int = 3, port: Int? = nil) async throws -> GPSDProcess {
        var logs: [String] = []
        for _ in 0..<max(1, attempts) {
            let gpsd = try gpsfake(capture: capture, cycle: cycle, once: once, held: true, port: port)
            let port = gpsd.port
            if await gpsd.waitUntilListening(),
               await eventually(timeout: .seconds(20), interval: .milliseconds(50), { Self.listsDevice(port: port) }) {
                return gpsd
            }
            logs.append(gpsd.log)
            gpsd.stop()
        }
        throw StartError(description: "gpsd never listed gpsfake's device in \(attempts) starts; gpsfake said:\n" + logs.joined(separator: "\n---\n"))
    }

    /// Asks gpsd on `port` for its devices on a connection of its own: whether it lists one.
    private static func listsDevice(port: Int) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard withSocketAddress(loopbackAddress(port: port), { connect(descriptor, $0, $1) }) == 0 else { return false }
        let query = Array("?DEVICES;\n".utf8)
        guard query.withUnsafeBytes({ send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == query.count else { return false }
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        // The banner (`VERSION`) comes first, then the answer; a line at a time is not needed.
        while received.count < 1 << 16 {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return false }
            received += chunk[..<count]
            let text = String(decoding: received, as: UTF8.self)
            if let start = text.range(of: #""class":"DEVICES""#), text[start.upperBound...].contains("\n") {
                return text[start.upperBound...].contains(#""path":"#)
            }
        }
        return false
    }

    /// The process output so far, for failure messages.
    public var log: String {
        (try? String(contentsOfFile: directory + "/process.log", encoding: .utf8)) ?? ""
    }

    /// Kills gpsfake and gpsd with SIGKILL, waits for gpsfake, and removes the temporary
    /// directory and the port's shared memory. Safe to call more than once.
    public func stop() {
        let alreadyStopped = stopped.withLock { stopped in
            defer { stopped = true }
            return stopped
        }
        guard !alreadyStopped else { return }
        kill(-processGroup, SIGKILL)
        if let hold { close(hold.socket) }
        var status: Int32 = 0
        while waitpid(processGroup, &status, 0) < 0 && errno == EINTR {}
        // gpsfake's gpsd is a grandchild that cannot be waited for: its detaching from the
        // port's segment shows it is gone.
        GPSDSharedMemory.waitUntilDetached(key: Self.sharedMemoryKey(port: port))
        GPSDSharedMemory.remove(key: Self.sharedMemoryKey(port: port))
        GPSDSharedMemory.removeTimeSegmentsCreatedByTests()
        try? FileManager.default.removeItem(atPath: directory)
    }

    deinit { stop() }

    /// gpsfake's shared-memory key for a port: `0x4770` followed by the port in hex.
    private static func sharedMemoryKey(port: Int) -> key_t { key_t(0x4770_0000 | (port & 0xFFFF)) }

    private static func sharedMemoryKeyText(port: Int) -> String {
        "0x" + String(UInt32(sharedMemoryKey(port: port)), radix: 16)
    }

    private static func spawn(
        port: Int, environment: [String: String], hold sentences: Int? = nil,
        arguments: (_ directory: String) -> [String]
    ) throws -> GPSDProcess {
        GPSDSharedMemory.recordExistingTimeSegments()
        var template = Array((FileManager.default.temporaryDirectory.path + "/switchyard-gpsd-XXXXXX").utf8CString)
        guard let created = mkdtemp(&template) else { throw StartError(description: "mkdtemp failed: \(errno)") }
        let directory = String(cString: created)
        var variables = ["PATH=/usr/bin:/usr/sbin:/bin:/sbin", "TMPDIR=\(directory)", "LANG=C.UTF-8"]
        variables += environment.map { "\($0.key)=\($0.value)" }
        var hold: (socket: Int32, sentences: Int)?
        var childInput: Int32?
        if let sentences {
            // A socket pair takes close-on-exec atomically; the child gets its end as stdin
            // through dup2, which clears the flag on the copy.
            var ends: [Int32] = [-1, -1]
            guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else {
                throw StartError(description: "socketpair failed: \(errno)")
            }
            hold = (ends[0], sentences)
            childInput = ends[1]
        }
        defer { if let childInput { close(childInput) } }
        let pid: pid_t
        do {
            pid = try ProcessSpawner.spawn(
                arguments(directory), environment: variables, input: childInput, output: directory + "/process.log")
        } catch {
            if let hold { close(hold.socket) }
            try? FileManager.default.removeItem(atPath: directory)
            throw error
        }
        return GPSDProcess(port: port, directory: directory, processGroup: pid, hold: hold)
    }
}
