import Foundation
import SwitchyardTestSupport
import Testing

/// The data directory belongs to the bus's user: created private, refused when others could
/// write to it or planted files in it, and locked so no second bus ever runs on it.
@Suite(.serialized)
struct DataDirectoryTests {
    /// A directory the bus creates is mode 0700.
    @Test func createdDirectoryIsPrivate() async throws {
        let bus = try await RunningBus.start()
        var status = stat()
        #expect(stat(bus.dataPath, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o700)
        #expect(await bus.stop() == 0)
    }

    /// An existing directory writable by group or others is refused with exit 1, and nothing is written in it.
    @Test(arguments: [0o777, 0o770, 0o702])
    func writableByOthersIsRefused(mode: Int) async throws {
        let directory = try TemporaryDirectory()
        let data = directory.url.appendingPathComponent("data").path
        #expect(mkdir(data, 0o700) == 0 && chmod(data, mode_t(mode)) == 0)
        let process = try Self.run(in: directory)
        #expect(await process.exitStatus() == 1)
        #expect(process.stderr.contains("cannot use data: it is writable by group or others (mode 0\(String(mode, radix: 8)))"), "\(process.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: data).isEmpty)
    }

    /// A symbolic link planted as `bus.lock` or as a journal segment is refused; the file it points at is untouched.
    @Test(arguments: ["bus.lock", "segment"])
    func plantedSymbolicLinkIsRefused(victimOf name: String) async throws {
        let directory = try TemporaryDirectory()
        let bus = try await RunningBus.start(in: directory)
        #expect(await bus.stop() == 0)
        let victim = try directory.write("victim.txt", "precious\n")
        let journal = bus.dataPath + "/journal"
        let planted = name == "bus.lock"
            ? bus.dataPath + "/bus.lock"
            : journal + "/" + (try FileManager.default.contentsOfDirectory(atPath: journal).filter { $0.hasPrefix("segment") }.sorted().last ?? "segment")
        try? FileManager.default.removeItem(atPath: planted)
        #expect(symlink(victim, planted) == 0)
        let process = try Self.run(in: directory)
        #expect(await process.exitStatus() == 1)
        #expect(process.stderr.contains("cannot use \(Self.relative(planted, to: directory)): it is a symbolic link"), "\(process.stderr)")
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious\n")
    }

    /// A file in the directory owned by another user is refused with exit 1.
    @Test(.enabled(if: SecondUser.testsEnabled, "\(SecondUser.missingMessage)"))
    func fileOwnedByAnotherUserIsRefused() async throws {
        let (uid, _) = try SecondUser.required()
        let directory = try TemporaryDirectory()
        let bus = try await RunningBus.start(in: directory)
        #expect(await bus.stop() == 0)
        let planted = bus.dataPath + "/journal"
        try SecondUser.own(planted)
        let process = try Self.run(in: directory)
        #expect(await process.exitStatus() == 1)
        #expect(process.stderr.contains("cannot use data/journal: it is owned by uid \(uid), not by the bus's user (uid \(geteuid()))"), "\(process.stderr)")
    }

    /// With `bus.lock` and `control.sock` deleted under a running bus, a second bus on the directory is still refused.
    @Test func deletedLockFileStillExcludesASecondBus() async throws {
        let bus = try await RunningBus.start()
        try FileManager.default.removeItem(atPath: bus.dataPath + "/bus.lock")
        try FileManager.default.removeItem(atPath: bus.socketPath)
        let second = try SwitchyardProcess(["run", bus.configPath], directory: bus.directory.url)
        #expect(await second.exitStatus() == 1)
        #expect(second.stderr.contains("is in use by another bus"), "\(second.stderr)")
        #expect(await bus.stop() == 0)
    }

    /// `path` as the bus names it: relative to the directory it runs in.
    static func relative(_ path: String, to directory: TemporaryDirectory) -> String {
        String(path.dropFirst(directory.url.path.count + 1))
    }

    static func run(in directory: TemporaryDirectory) throws -> SwitchyardProcess {
        let path = try directory.write("config.json", #"{"bus": {"name": "dd", "dataDirectory": "data"}, "plugins": []}"#)
        return try SwitchyardProcess(["run", path], directory: directory.url)
    }
}
