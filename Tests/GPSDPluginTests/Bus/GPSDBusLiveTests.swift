import Foundation
@testable import GPSDPlugin
import Switchyard
import SwitchyardTestSupport
import Testing

/// The gpsd and location-emitter plugins on a bus, fed by a real gpsd playing real receiver
/// captures through gpsfake.
@Suite(.serialized, .enabled(if: GPSDProcess.testsEnabled, "\(GPSDProcess.missingMessage)"))
struct GPSDBusLiveTests {
    private static func config(port: Int, minMode: Int = 2, extra: String = "") -> String {
        """
        {"plugins": [
          {"name": "gps", "kind": "gpsd", "port": \(port), "reconnectDelay": 0.05, "maxReconnectDelay": 0.4,
           "satellitesInterval": 60\(extra)},
          {"name": "location", "kind": "location-emitter", "source": {"plugin": "gps"}, "minMode": \(minMode)}
        ]}
        """
    }

    /// Each capture played once: .chk fix counts and modes, the location's availability, an unbroken feed.
    @Test(arguments: [
        ("bu353s4.log", 2, true),
        ("nl2008u.log", 3, true),
        ("bt451.log", 3, true),
        ("magellan-ec10.log", 3, false),
        ("ait250.log", 2, true),
        ("skytraq.log", 2, false),
        ("eXplorist110.log", 2, false),
        ("april6_2019.log", 2, true),
        ("triton400.log", 2, true),
        ("com-1289.log", 2, true),
        ("gp-320fw-2019-04-07-coldboot.log", 2, true),
    ])
    func capturePlayedOnce(capture: String, minMode: Int, available: Bool) async throws {
        // gpsd reports only what arrives after the watch, so the capture is held until the
        // plugin watches the fake device, however slowly a loaded machine gets there.
        let gpsd = try GPSDProcess.gpsfake(capture: Fixtures.path(capture), cycle: 0.01, once: true, held: true)
        defer { gpsd.stop() }
        #expect(await gpsd.waitUntilListening(), "\(gpsd.log)")
        let running = try await RunningBus(Self.config(port: gpsd.port, minMode: minMode))
        #expect(await running.recorder.wait { ActionRecorder.gpsStatuses($0).contains("connected") }, "\(gpsd.log)")
        gpsd.release()
        let finished = await running.recorder.wait(until: ActionRecorder.captureFinished)
        try await running.stop()
        let recorder = running.recorder
        #expect(finished, "\(capture) never finished; gpsfake said:\n\(gpsd.log)\nthe bus said:\n\(running.log.text)")

        // Fix counts and modes: with the capture held until the watch, gpsd reports over TCP
        // exactly the TPVs its .chk lists for the deterministic pipe mode, mode by mode.
        let expected = try Fixtures.fixModes(capture)
        let fixes = recorder.payloads("gps/fix")
        var seen: [Int: Int] = [:]
        for fix in fixes { seen[fix["mode"]?.intValue ?? -1, default: 0] += 1 }
        #expect(seen == expected, "\(capture): fixes per mode \(seen), the .chk lists \(expected)")
        #expect(fixes.allSatisfy { $0["device"]?.stringValue?.hasPrefix("/dev/") == true })

        // The feed: no-device until gpsfake's device is activated, then connected and never
        // lost or stale until the device went away at the end.
        let statuses = recorder.statuses("gps/status")
        let connected = try #require(statuses.firstIndex(of: "connected"), "\(capture): statuses \(statuses)")
        #expect(statuses[..<connected].allSatisfy { $0 == "connecting" || $0 == "no-device" }, "\(capture): \(statuses)")
        #expect(Array(statuses[connected...]) == ["connected", "no-device"], "\(capture): statuses \(statuses)")

        // SKY summaries are rate-limited: at most one in the 60 s interval.
        #expect(recorder.payloads("gps/satellites").count <= 1)
        if try Fixtures.checkReports(capture).contains(where: { $0.contains("\"class\":\"SKY\"") }) {
            #expect(recorder.payloads("gps/satellites").count == 1)
        }

        // The location: available with changes traced to fixes, or searching without any.
        let changes = recorder.records.filter { $0.event == "location/changed" }
        let fixIDs = Set(recorder.records.filter { $0.event == "gps/fix" }.map(\.id))
        #expect(changes.allSatisfy { $0.cause.map(fixIDs.contains) == true })
        if available {
            #expect(recorder.availabilities.contains("available"), "\(capture): \(recorder.availabilities)")
            #expect(!changes.isEmpty)
            #expect(running.bus.currentState.value(atPath: "location.location.source") == "gps")
        } else {
            #expect(recorder.availabilities == ["searching", "unavailable"], "\(capture): \(recorder.availabilities)")
            #expect(changes.isEmpty)
            #expect(running.bus.currentState.value(atPath: "location.location") == .null)
        }
        #expect(running.bus.currentState.value(atPath: "location.availability") == "unavailable")
        #expect(running.bus.currentState.value(atPath: "gps.status") == "no-device")
    }

    /// gpsd killed mid-stream and restarted on its port: disconnected, then connected, and fixes resume.
    @Test func gpsdKilledAndRestarted() async throws {
        let capture = Fixtures.path("bu353s4.log")
        let first = try GPSDProcess.gpsfake(capture: capture, cycle: 0.01, once: false)
        defer { first.stop() }
        #expect(await first.waitUntilListening(), "\(first.log)")
        let running = try await RunningBus(Self.config(port: first.port))
        #expect(await running.recorder.wait { $0.filter { $0.event == "gps/fix" }.count >= 3 }, "\(first.log)")
        first.stop()
        #expect(await running.recorder.wait { ActionRecorder.gpsStatuses($0).last == "disconnected" })
        #expect(running.recorder.availabilities.last == "unavailable")
        let fixesBefore = running.recorder.payloads("gps/fix").count

        let second = try GPSDProcess.gpsfake(capture: capture, cycle: 0.01, once: false, port: first.port)
        defer { second.stop() }
        let resumed = await running.recorder.wait { records in
            records.filter { $0.event == "gps/fix" }.count >= fixesBefore + 3
        }
        try await running.stop()
        #expect(resumed, "\(second.log)\n\(running.log.text)")
        let statuses = running.recorder.statuses("gps/status")
        let lost = try #require(statuses.firstIndex(of: "disconnected"))
        #expect(statuses[..<lost].last == "connected", "\(statuses)")
        #expect(statuses[..<lost].allSatisfy { ["connecting", "no-device", "connected"].contains($0) })
        #expect(statuses[lost...].contains("connected"))
        #expect(statuses.last == "connected")
        #expect(running.recorder.availabilities.last == "available")
        #expect(running.recorder.payloads("gps/status")[lost]["retryIn"]?.doubleValue == 0.05)
    }

    /// A gpsd without any device: status no-device, location unavailable.
    @Test func gpsdWithoutDevice() async throws {
        let gpsd = try GPSDProcess.bare()
        defer { gpsd.stop() }
        #expect(await gpsd.waitUntilListening(), "\(gpsd.log)")
        let running = try await RunningBus(Self.config(port: gpsd.port))
        let reported = await running.recorder.wait { ActionRecorder.gpsStatuses($0).contains("no-device") }
        try await running.stop()
        #expect(reported, "\(gpsd.log)\n\(running.log.text)")
        #expect(running.recorder.statuses("gps/status").prefix(2) == ["connecting", "no-device"])
        #expect(running.recorder.payloads("gps/status")[1]["reason"] == "gpsd has no device")
        #expect(running.recorder.payloads("gps/status")[1]["gpsd"]?.stringValue?.isEmpty == false)
        #expect(running.recorder.availabilities.isEmpty)
        #expect(running.bus.currentState.value(atPath: "location.availability") == "unavailable")
    }

    /// Watching a device gpsd does not have: gpsd's error is logged and the status is no-device.
    @Test func watchedDeviceMissing() async throws {
        let gpsd = try GPSDProcess.bare()
        defer { gpsd.stop() }
        #expect(await gpsd.waitUntilListening(), "\(gpsd.log)")
        let running = try await RunningBus(Self.config(port: gpsd.port, extra: ", \"device\": \"/dev/ttyNOSUCH\""))
        let reported = await running.recorder.wait { ActionRecorder.gpsStatuses($0).contains("no-device") }
        try await running.stop()
        #expect(reported, "\(gpsd.log)\n\(running.log.text)")
        #expect(running.recorder.payloads("gps/status")[1]["reason"] == "gpsd does not have /dev/ttyNOSUCH")
        #expect(running.log.text.contains("gpsd: No such device as /dev/ttyNOSUCH"))
    }
}
