import Foundation
import SwitchyardTestSupport
import Testing

/// The end-to-end tests never touch the user's `.switchyard/` in the package root: a process
/// started without a directory runs in a temporary one of its own.
struct SandboxTests {
    /// Every entry under the package root's `.switchyard/` with its size and modification time;
    /// empty when there is none.
    private func userData() -> [String: String] {
        let root = SwitchyardProcess.packageRoot.appendingPathComponent(".switchyard").path
        var entries: [String: String] = [:]
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let name = enumerator?.nextObject() as? String {
            let attributes = (try? FileManager.default.attributesOfItem(atPath: root + "/" + name)) ?? [:]
            entries[name] = "\(attributes[.size] ?? "?") \(attributes[.modificationDate] ?? "?")"
        }
        return entries
    }

    /// `switchyard run` with the default configuration (bus "demo", data in `.switchyard/demo`
    /// of the working directory) keeps its data in the sandbox, and leaves the package root's
    /// `.switchyard/` as it was, also while the user's demo runs there.
    @Test func defaultRunKeepsItsDataInTheSandbox() async throws {
        let before = userData()
        let bus = try SwitchyardProcess(["run"])
        #expect(await bus.wait { $0.stderr.contains("ready:") }, "\(bus.stderr)")
        let workingDirectory = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(bus.pid)/cwd")
        let root = SwitchyardProcess.packageRoot.resolvingSymlinksInPath().path
        #expect(workingDirectory != root && !workingDirectory.hasPrefix(root + "/"), "runs in \(workingDirectory)")
        #expect(FileManager.default.fileExists(atPath: workingDirectory + "/.switchyard/demo/journal"))
        bus.signal(SIGTERM)
        #expect(await bus.exitStatus() == 0, "\(bus.stderr)")
        #expect(userData() == before)
    }

    /// A test cannot run `switchyard` in the package root or below it by mistake.
    @Test func packageRootIsRefused() throws {
        for directory in [SwitchyardProcess.packageRoot, SwitchyardProcess.packageRoot.appendingPathComponent("Config")] {
            #expect(throws: PackageRootRefusal.self) { try SwitchyardProcess(["version"], directory: directory) }
        }
    }

    /// The sandbox's links lead to the package's files and removing the sandbox leaves them.
    @Test func sandboxLinksArePackageFiles() throws {
        var sandbox: TemporaryDirectory? = try TemporaryDirectory.sandbox()
        let linked = try #require(sandbox).path("Config/default.json")
        #expect(FileManager.default.contentsEqual(atPath: linked, andPath: SwitchyardProcess.packageRoot.appendingPathComponent("Config/default.json").path))
        sandbox = nil
        #expect(FileManager.default.fileExists(atPath: SwitchyardProcess.packageRoot.appendingPathComponent("Config/default.json").path))
    }
}
