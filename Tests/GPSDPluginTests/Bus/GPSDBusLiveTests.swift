import Foundation
@testable import GPSDPlugin
import LocationEmitterPlugin
import SwitchyardBus
import SwitchyardTestSupport
import SwitchyardBusTesting
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

    /// Starts a bus with the gpsd and location-emitter plugins on real time, recording
    /// everything from `info` up.
    private static func startBus(_ config: String) async throws -> TestBus {
        let registry = PluginRegistry(GPSDPlugin.self, LocationEmitterPlugin.self)
        let bus = try TestBus(configuration: config, registry: registry, clock: ContinuousClock(), logLevel: .info)
        #expect(await bus.start())
        return bus
    }

    /// The `status` values of `gps/status` among `actions`, in order.
    private static func gpsStatuses(_ actions: [BusAction]) -> [String] {
        actions.filter { $0.type == "gps/status" }.compactMap { $0.payload["status"]?.stringValue }
    }

    /// The availability values of `location/availability`, in order.
    private static func availabilities(_ bus: TestBus) -> [String] {
        bus.payloads("location/availability").compactMap { $0["availability"]?.stringValue }
    }

    /// Whether gpsd reported the device of a capture played once gone, and the location
    /// emitter has handled the `no-device` status that came before it.
    private static func captureFinished(_ actions: [BusAction]) -> Bool {
        guard actions.contains(where: { $0.type == "gps/device" && $0.payload["active"] == false }),
            let noDevice = actions.lastIndex(where: { $0.type == "gps/status" && $0.payload["status"] == "no-device" })
        else { return false }
        return actions[noDevice...].contains { $0.type == "location/availability" && $0.payload["availability"] == "unavailable" }
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
        // plugin watches, however slowly a loaded machine gets there; it starts once gpsd lists
        // gpsfake's device (a start where gpsfake never added it is made again). Watching shows
        // as `connected`, or as `no-device` while gpsd has not opened the device yet (it is
        // announced once data flows), so both count.
        let gpsd = try await GPSDProcess.gpsfakeWithDevice(capture: Fixtures.path(capture), cycle: 0.01, once: true)
        defer { gpsd.stop() }
        let bus = try await Self.startBus(Self.config(port: gpsd.port, minMode: minMode))
        await bus.waitUntil("watching; gpsfake said:\n\(gpsd.log)") { Self.gpsStatuses($0).contains { $0 == "connected" || $0 == "no-device" } }
        gpsd.release()
        await bus.waitUntil("\(capture) finished; gpsfake said:\n\(gpsd.log)\nthe bus said:\n\(bus.logLines.joined(separator: "\n"))",
                            Self.captureFinished)
        try await bus.stop()

        // Fix counts and modes: with the capture held until the watch, gpsd reports over TCP
        // exactly the TPVs its .chk lists for the deterministic pipe mode, mode by mode.
        let expected = try Fixtures.fixModes(capture)
        let fixes = bus.payloads("gps/fix")
        var seen: [Int: Int] = [:]
        for fix in fixes { seen[fix["mode"]?.intValue ?? -1, default: 0] += 1 }
        #expect(seen == expected, "\(capture): fixes per mode \(seen), the .chk lists \(expected)")
        #expect(fixes.allSatisfy { $0["device"]?.stringValue?.hasPrefix("/dev/") == true })

        // The feed: no-device until gpsfake's device is activated, then connected and never
        // lost or stale until the device went away at the end.
        let statuses = Self.gpsStatuses(bus.actions)
        let connected = try #require(statuses.firstIndex(of: "connected"), "\(capture): statuses \(statuses)")
        #expect(statuses[..<connected].allSatisfy { $0 == "connecting" || $0 == "no-device" }, "\(capture): \(statuses)")
        #expect(Array(statuses[connected...]) == ["connected", "no-device"], "\(capture): statuses \(statuses)")

        // SKY summaries are rate-limited: at most one in the 60 s interval.
        #expect(bus.payloads("gps/satellites").count <= 1)
        if try Fixtures.checkReports(capture).contains(where: { $0.contains("\"class\":\"SKY\"") }) {
            #expect(bus.payloads("gps/satellites").count == 1)
        }

        // The location: available with changes traced to fixes, or searching without any.
        let changes = bus.actions("location/changed")
        let fixIDs = Set(bus.actions("gps/fix").map(\.id))
        #expect(changes.allSatisfy { $0.cause.map(fixIDs.contains) == true })
        if available {
            #expect(Self.availabilities(bus).contains("available"), "\(capture): \(Self.availabilities(bus))")
            #expect(!changes.isEmpty)
            #expect(bus.state.value(atPath: "location.location.source") == "gps")
        } else {
            #expect(Self.availabilities(bus) == ["searching", "unavailable"], "\(capture): \(Self.availabilities(bus))")
            #expect(changes.isEmpty)
            #expect(bus.state.value(atPath: "location.location") == .null)
        }
        #expect(bus.state.value(atPath: "location.availability") == "unavailable")
        #expect(bus.state.value(atPath: "gps.status") == "no-device")
    }

    /// gpsd killed mid-stream and restarted on its port: disconnected, then connected, and fixes resume.
    @Test func gpsdKilledAndRestarted() async throws {
        let capture = Fixtures.path("bu353s4.log")
        // Held until gpsd lists gpsfake's device (under load gpsfake sometimes never added it,
        // and the bus saw no-device for good), then played.
        let first = try await GPSDProcess.gpsfakeWithDevice(capture: capture, cycle: 0.01, once: false)
        defer { first.stop() }
        let bus = try await Self.startBus(Self.config(port: first.port))
        first.release()
        await bus.waitUntil("3 fixes; gpsfake said:\n\(first.log)") { $0.count(where: { $0.type == "gps/fix" }) >= 3 }
        first.stop()
        await bus.waitUntil("disconnected") { Self.gpsStatuses($0).last == "disconnected" }
        // The location plugin answers the disconnection with an action of its own, later.
        await bus.waitUntil("location unavailable") { actions in
            actions.last { $0.type == "location/availability" }?.payload["availability"] == "unavailable"
        }
        #expect(Self.availabilities(bus).last == "unavailable")
        let fixesBefore = bus.payloads("gps/fix").count

        let second = try await GPSDProcess.gpsfakeWithDevice(capture: capture, cycle: 0.01, once: false, port: first.port)
        defer { second.stop() }
        second.release()
        await bus.waitUntil("fixes resumed; gpsfake said:\n\(second.log)\nthe bus said:\n\(bus.logLines.joined(separator: "\n"))") {
            $0.count(where: { $0.type == "gps/fix" }) >= fixesBefore + 3
        }
        try await bus.stop()
        let statuses = Self.gpsStatuses(bus.actions)
        let lost = try #require(statuses.firstIndex(of: "disconnected"))
        #expect(statuses[..<lost].last == "connected", "\(statuses)")
        #expect(statuses[..<lost].allSatisfy { ["connecting", "no-device", "connected"].contains($0) })
        #expect(statuses[lost...].contains("connected"))
        #expect(statuses.last == "connected")
        #expect(Self.availabilities(bus).last == "available")
        #expect(bus.payloads("gps/status")[lost]["retryIn"]?.doubleValue == 0.05)
    }

    /// A gpsd without any device: status no-device, location unavailable.
    @Test func gpsdWithoutDevice() async throws {
        let gpsd = try GPSDProcess.bare()
        defer { gpsd.stop() }
        #expect(await gpsd.waitUntilListening(), "\(gpsd.log)")
        let bus = try await Self.startBus(Self.config(port: gpsd.port))
        await bus.waitUntil("no-device; gpsd said:\n\(gpsd.log)\nthe bus said:\n\(bus.logLines.joined(separator: "\n"))") {
            Self.gpsStatuses($0).contains("no-device")
        }
        try await bus.stop()
        #expect(Self.gpsStatuses(bus.actions).prefix(2) == ["connecting", "no-device"])
        #expect(bus.payloads("gps/status")[1]["reason"] == "gpsd has no device")
        #expect(bus.payloads("gps/status")[1]["gpsd"]?.stringValue?.isEmpty == false)
        #expect(Self.availabilities(bus).isEmpty)
        #expect(bus.state.value(atPath: "location.availability") == "unavailable")
    }

    /// Watching a device gpsd does not have: gpsd's error is logged and the status is no-device.
    @Test func watchedDeviceMissing() async throws {
        let gpsd = try GPSDProcess.bare()
        defer { gpsd.stop() }
        #expect(await gpsd.waitUntilListening(), "\(gpsd.log)")
        let bus = try await Self.startBus(Self.config(port: gpsd.port, extra: ", \"device\": \"/dev/ttyNOSUCH\""))
        await bus.waitUntil("no-device; gpsd said:\n\(gpsd.log)\nthe bus said:\n\(bus.logLines.joined(separator: "\n"))") {
            Self.gpsStatuses($0).contains("no-device")
        }
        try await bus.stop()
        #expect(bus.payloads("gps/status")[1]["reason"] == "gpsd does not have /dev/ttyNOSUCH")
        #expect(bus.logLines.contains { $0.contains("gpsd: No such device as /dev/ttyNOSUCH") })
    }
}
