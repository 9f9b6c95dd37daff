@testable import GPSDPlugin
import Switchyard
import Testing

/// The gpsd plugin's session against a real gpsd fed with real receiver captures by gpsfake.
@Suite(.serialized, .enabled(if: GPSDProcess.testsEnabled, "\(GPSDProcess.missingMessage)"))
struct GPSDLiveTests {
    /// Plays `capture` once and returns what the session emitted up to the device going away.
    private func play(_ capture: String, cycle: Double = 0.03) async throws -> ActionRecorder {
        let gpsd = try GPSDProcess.gpsfake(capture: Fixtures.path(capture), cycle: cycle, once: true)
        defer { gpsd.stop() }
        let session = LiveSession(port: gpsd.port)
        let ended = await session.recorder.wait { records in records.contains(where: \.isDeviceGone) }
        await session.stop()
        #expect(ended, "gpsfake never finished \(capture); its log:\n\(gpsd.log)")
        return session.recorder
    }

    /// A clean 3D capture gives mode-3 fixes, no more than the .chk lists.
    @Test func cleanCaptureGivesThreeDimensionalFixes() async throws {
        let recorder = try await play("bu353s4.log")
        let fixes = recorder.payloads("fix")
        let expected = try Fixtures.fixModes("bu353s4.log")
        #expect(!fixes.isEmpty)
        #expect(fixes.count <= expected.values.reduce(0, +))
        #expect(fixes.contains { $0["mode"] == 3 && $0["lat"] != nil })
        #expect(recorder.statuses.first == "connecting")
        #expect(recorder.statuses.contains("connected"))
    }
}
