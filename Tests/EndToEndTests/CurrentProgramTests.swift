import Foundation
import SwitchyardTestSupport
import Testing

/// `switchyard`, the product `swift run switchyard` builds and runs, is the Swift program itself,
/// not a launcher that starts whatever `switchyard-bus` an earlier build left beside it: what
/// people type runs the code as it is now.
struct CurrentProgramTests {
    /// Copied alone into an empty folder, `switchyard` prints the version the sources declare
    /// and validates a configuration: nothing it needs lies beside it.
    @Test func switchyardRunsOnItsOwnWithTheCurrentSources() async throws {
        let directory = try TemporaryDirectory()
        let lonely = directory.url.appendingPathComponent("switchyard")
        try FileManager.default.copyItem(at: SwitchyardProcess.executable, to: lonely)
        let declared = try #require(try Self.declaredVersion())

        let version = try InstallTests.run(lonely.path, ["--version"])
        #expect(version.status == 0 && version.output == "switchyard \(declared)\n", "\(version)")

        let config = try directory.write("alone.json", """
            {"bus": {"name": "alone"}, "plugins": [{"name": "tick", "kind": "timer", "interval": 60}]}
            """)
        let validate = try InstallTests.run(lonely.path, ["validate", config], in: directory.url)
        #expect(validate.status == 0, "validate: \(validate.output)")
    }

    /// The version literal of `Sources/switchyard/SwitchyardCommand.swift`.
    static func declaredVersion() throws -> String? {
        let source = try String(contentsOf: SwitchyardProcess.packageRoot.appendingPathComponent("Sources/switchyard/SwitchyardCommand.swift"),
                                encoding: .utf8)
        return source.firstMatch(of: /static let version = "([^"]+)"/).map { String($0.output.1) }
    }
}
