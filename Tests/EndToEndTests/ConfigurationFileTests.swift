import Foundation
import SwitchyardTestSupport
import Testing

/// A configuration path that is not a regular file never blocks the bus or its signal thread.
@Suite(.serialized)
struct ConfigurationFileTests {
    /// `run` and `validate` on a FIFO, a directory or a device exit 78 at once, naming what the path is.
    @Test(arguments: [("fifo", "a FIFO (named pipe)"), ("directory", "a directory"), ("/dev/zero", "a character device")])
    func notARegularFileIsRefused(kind: String, described: String) async throws {
        let directory = try TemporaryDirectory()
        var path = directory.url.appendingPathComponent("c.json").path
        switch kind {
        case "fifo": #expect(mkfifo(path, 0o600) == 0)
        case "directory": #expect(mkdir(path, 0o700) == 0)
        default: path = kind
        }
        for command in ["run", "validate"] {
            let process = try SwitchyardProcess([command, path], directory: directory.url)
            #expect(await process.exitStatus(timeout: .seconds(30)) == 78)
            #expect(process.stderr.contains("\(path): cannot read the file: it is \(described), not a regular file"), "\(process.stderr)")
        }
    }

    /// A symbolic link to a regular file is followed and the bus runs.
    @Test func symbolicLinkToARegularFileIsRead() async throws {
        let directory = try TemporaryDirectory()
        let target = try directory.write("real.json", #"{"bus": {"dataDirectory": "data"}, "plugins": []}"#)
        let link = directory.url.appendingPathComponent("c.json").path
        #expect(symlink(target, link) == 0)
        let process = try SwitchyardProcess(["validate", link], directory: directory.url)
        #expect(await process.exitStatus() == 0)
    }

    /// SIGHUP after the configuration became a FIFO keeps the running one, and SIGTERM still stops the bus.
    @Test func reloadFromAFIFOKeepsTheSignalThreadFree() async throws {
        let bus = try await RunningBus.start()
        try FileManager.default.removeItem(atPath: bus.configPath)
        #expect(mkfifo(bus.configPath, 0o600) == 0)
        bus.process.signal(SIGHUP)
        #expect(await bus.process.wait { $0.stderr.contains("keeping the running configuration") })
        #expect(bus.process.stderr.contains("a FIFO (named pipe), not a regular file"))
        #expect(await bus.stop() == 0)
    }
}
