import Foundation
import SwitchyardTestSupport
import Testing

/// `journal export -o` never writes inside a data directory, and a failed export leaves no
/// file behind, not even its `.tmp`.
@Suite(.serialized)
struct ExportTargetTests {
    /// Every file of a data directory with its bytes, to show that a refused export changed none.
    private func contents(of dataDirectory: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: dataDirectory)
        while let name = enumerator?.nextObject() as? String {
            let path = dataDirectory + "/" + name
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
                  let attributes = try? FileManager.default.attributesOfItem(atPath: path),
                  attributes[.type] as? FileAttributeType == .typeRegular else { continue }
            files[name] = try Data(contentsOf: URL(fileURLWithPath: path))
        }
        return files
    }

    private func newestSegment(_ bus: RunningBus) throws -> String {
        let names = try FileManager.default.contentsOfDirectory(atPath: bus.dataPath + "/journal")
        return try #require(names.filter { $0.hasPrefix("segment-") }.max())
    }

    /// A stopped bus's segment, durable mark, slices manifest, the directory itself and paths
    /// reaching into it through `..` or a symbolic link are refused with exit 1; the journal is
    /// unchanged, verifies, and the bus starts again.
    @Test func refusesTargetsInsideTheDataDirectory() async throws {
        let bus = try await RunningBus.start(bus: #"{"name": "target"}"#)
        #expect(try await bus.client(["send", "note/kept", "1"]).status == 0)
        #expect(await bus.stop() == 0)
        let segment = try newestSegment(bus)
        try FileManager.default.createSymbolicLink(atPath: bus.directory.path("alias"), withDestinationPath: "data")
        let before = try contents(of: bus.dataPath)
        #expect(before["slices.json"] != nil && before["journal/durable"] != nil)
        for target in ["data/journal/\(segment)", "data/journal/durable", "data/slices.json", "data", "data/journal",
                       "data/journal/../slices.json", "alias/journal/\(segment)", bus.dataPath + "/new.jsonl"] {
            for format in [[], ["--gpx"]] {
                let refused = try await bus.client(["journal", "export", "-o", target] + format)
                #expect(refused.status == 1, "-o \(target): \(refused.stderr)")
                #expect(refused.stderr.contains("cannot export to \(target): it is inside the data directory"), "\(refused.stderr)")
            }
        }
        #expect(try contents(of: bus.dataPath) == before)
        #expect(try await bus.client(["journal", "verify"]).status == 0)
        let restarted = try await bus.restart()
        #expect(try await restarted.client(["send", "note/after"]).status == 0)
        #expect(await restarted.stop() == 0)
    }

    /// With the bus running, its current segment and control socket are refused (so nothing
    /// acknowledged later is lost and clients stay connected), as is another bus's data
    /// directory found by the locator; a file outside every data directory is written.
    @Test func refusesTheLiveBusAndOtherKnownBuses() async throws {
        let bus = try await RunningBus.start(bus: #"{"name": "live"}"#)
        let other = try TemporaryDirectory()
        let neighbour = try await RunningBus.start(bus: #"{"name": "neighbour"}"#, in: other)
        #expect(await neighbour.stop() == 0)
        for target in ["data/journal/\(try newestSegment(bus))", "data/control.sock", neighbour.dataPath + "/journal/durable"] {
            let refused = try await bus.client(["journal", "export", "-o", target])
            #expect(refused.status == 1, "-o \(target): \(refused.stderr)")
            #expect(refused.stderr.contains("it is inside the data directory"), "\(refused.stderr)")
        }
        #expect(FileManager.default.fileExists(atPath: bus.socketPath))
        let sent = try await bus.client(["send", "note/acknowledged", "2"])
        #expect(sent.status == 0, "\(sent.stderr)")
        let exported = try await bus.client(["journal", "export", "-o", "outside.jsonl"])
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect(try String(contentsOfFile: bus.directory.path("outside.jsonl"), encoding: .utf8).contains("note/acknowledged"))
        #expect(await bus.stop() == 0)
        let shown = try await bus.client(["journal", "show"])
        #expect(shown.stdout.contains("note/acknowledged"))
        #expect(try await bus.client(["journal", "verify"]).status == 0)
    }

    /// A write that fails after its temporary file was made (the target is a directory, so
    /// the rename fails) exits 1 and leaves neither the target nor `FILE.tmp`.
    @Test func failedExportLeavesNoTemporaryFile() async throws {
        let bus = try await RunningBus.start(bus: #"{"name": "tmp"}"#, plugins: """
            [{"name": "location", "kind": "location-emitter", "source": {"static": {"latitude": -41.29, "longitude": 174.78}}}]
            """)
        #expect(await bus.stop() == 0)
        try FileManager.default.createDirectory(atPath: bus.directory.path("taken"), withIntermediateDirectories: false)
        for format in [[], ["--geojson"]] {
            let failed = try await bus.client(["journal", "export", "-o", "taken"] + format)
            #expect(failed.status == 1, "\(failed.stderr)")
            #expect(failed.stderr.contains("taken"), "\(failed.stderr)")
            #expect(!FileManager.default.fileExists(atPath: bus.directory.path("taken.tmp")), "\(format): taken.tmp was left behind")
        }
    }
}
