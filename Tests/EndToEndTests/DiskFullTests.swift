import Foundation
import SwitchyardTestSupport
import Testing

/// A small tmpfs mounted as the data directory; the test unmounts it.
final class SmallFileSystem: Sendable {
    let path: String

    /// Mounts a tmpfs of `size` (`mount -t tmpfs -o size=2m,mode=0700`) at `path`.
    init(at path: String, size: String) throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let mount = Process()
        mount.executableURL = URL(fileURLWithPath: "/bin/mount")
        mount.arguments = ["-t", "tmpfs", "-o", "size=\(size),mode=0700", "tmpfs", path]
        try mount.run()
        mount.waitUntilExit()
        guard mount.terminationStatus == 0 else { throw ControlE2EFailure(description: "mount of a tmpfs at \(path) failed") }
        self.path = path
    }

    /// Unmounts it (lazily, so a process still inside does not keep it mounted); returns whether
    /// `umount` succeeded.
    @discardableResult
    func unmount() -> Bool {
        let unmount = Process()
        unmount.executableURL = URL(fileURLWithPath: "/bin/umount")
        unmount.arguments = ["-l", path]
        guard (try? unmount.run()) != nil else { return false }
        unmount.waitUntilExit()
        return unmount.terminationStatus == 0
    }
}

/// Root mounts file systems; CI runs as root, so there a missing privilege fails the test.
let canMount = getuid() == 0 || ProcessInfo.processInfo.environment["CI"] != nil

/// "ok" means durable: a full disk is never acknowledged, stops the bus with exit 1, and loses
/// no acknowledged action or id.
struct DiskFullTests {
    /// Fills a 2 MB data directory: the failing batch gets `journal-failed`, the bus exits 1 naming
    /// the file and errno, a restart on the full disk exits 1, and after space is freed every
    /// acknowledged action is there and new ids continue after them.
    @Test(.enabled(if: canMount, "needs root to mount a tmpfs"), .scaledTimeLimit(minutes: 5), arguments: ["always", "interval"])
    func fullDiskIsNeverAcknowledged(fsync: String) async throws {
        let directory = try TemporaryDirectory()
        let data = directory.url.appendingPathComponent("data").path
        let disk = try SmallFileSystem(at: data, size: "2m")
        defer { disk.unmount() }
        // Ballast to free later: the bus gets about 1 MB.
        let ballast = data + "/ballast"
        #expect(FileManager.default.createFile(atPath: ballast, contents: Data(count: 1 << 20), attributes: [.posixPermissions: 0o600]))
        let bus = try await RunningBus.start(bus: #"{"name": "full", "journal": {"fsync": "\#(fsync)"}}"#, in: directory)
        let client = try await bus.connect()
        let padding = String(repeating: "x", count: 4000)
        var acknowledged: [Int: Int] = [:]
        var failure: [String: Any]?
        for n in 0..<2000 {
            let reply = object(try await onThread {
                try client.request(#"{"op":"dispatch","action":{"type":"fill/n","payload":{"n":\#(n),"pad":"\#(padding)"}}}"#)
            })
            if reply["ok"] as? Bool == true, let id = reply["id"] as? Int {
                acknowledged[id] = n
            } else {
                failure = reply
                break
            }
        }
        let error = failure?["error"] as? [String: Any]
        #expect(error?["code"] as? String == "journal-failed", "\(String(describing: failure))")
        #expect((error?["message"] as? String)?.contains("ENOSPC") == true)
        #expect(acknowledged.count > 50)
        #expect(await bus.process.exitStatus(timeout: .seconds(60)) == 1)
        let logged = bus.process.stderr
        #expect(logged.contains("segment-") && logged.contains("No space left on device (ENOSPC, errno 28)"), "\(logged)")

        let refused = try SwitchyardProcess(["run", bus.configPath], directory: directory.url)
        #expect(await refused.exitStatus(timeout: .seconds(60)) == 1)
        #expect(refused.stderr.contains("ENOSPC"), "\(refused.stderr)")

        try FileManager.default.removeItem(atPath: ballast)
        let restarted = try await bus.restart()
        let sent = try await restarted.client(["send", "fill/after"])
        let newID = integer(after: "id", in: ArraySlice(sent.stdout.utf8)) ?? 0
        #expect(newID > acknowledged.keys.max() ?? 0)
        #expect(await restarted.stop() == 0)
        let journaled = try await journalActions(restarted)
        var found: [Int: Int] = [:]
        for action in journaled where action["type"] as? String == "fill/n" {
            if let id = action["id"] as? Int, let n = (action["payload"] as? [String: Any])?["n"] as? Int { found[id] = n }
        }
        let lost = acknowledged.filter { found[$0.key] != $0.value }
        #expect(lost.isEmpty, "acknowledged but lost: \(lost.keys.sorted())")
        let ids = journaled.compactMap { $0["id"] as? Int }
        #expect(ids == ids.sorted() && Set(ids).count == ids.count)
        #expect(disk.unmount())
    }
}
