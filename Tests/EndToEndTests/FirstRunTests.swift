import Foundation
import SwitchyardTestSupport
import Testing

/// What a newcomer meets in the first minutes, with the real executable.
@Suite(.serialized)
struct FirstRunTests {
    /// `switchyard` with no argument outside the checkout, where `Config/default.json` is not,
    /// says what to pass instead of only that the file cannot be read.
    @Test func missingDefaultConfigurationSaysWhatToPass() async throws {
        let elsewhere = try TemporaryDirectory()
        let process = try SwitchyardProcess([], directory: elsewhere.url)
        #expect(await process.exitStatus() == 78)
        #expect(process.stderr.contains("Config/default.json: cannot read the file"))
        #expect(process.stderr.contains("switchyard run PATH/TO/CONFIG.json"))
        #expect(process.stderr.contains(elsewhere.url.path))
    }

    /// A named configuration that is missing gets the plain error: the user chose the path.
    @Test func missingNamedConfigurationHasNoHint() async throws {
        let elsewhere = try TemporaryDirectory()
        let process = try SwitchyardProcess(["run", "mine.json"], directory: elsewhere.url)
        #expect(await process.exitStatus() == 78)
        #expect(process.stderr.contains("mine.json: cannot read the file"))
        #expect(!process.stderr.contains("PATH/TO/CONFIG.json"))
    }
}
