import Foundation
import SwitchyardTestSupport
import Testing

/// A back office sees its fleet: two buses (the example configs) publish their fixes through a
/// real nats-server to a third, whose dashboard, in headless Chromium, draws one map with a
/// layer per vehicle and lists each origin under its bridge.
@Suite(NATSServer.requirement, .serialized, .enabled(if: HeadlessChromium.testsEnabled, "\(HeadlessChromium.missingMessage)"))
struct FleetMapTests {
    /// Where the screenshot goes (copied into docs/ for docs/scaling-out.md).
    static let screenshot = SwitchyardProcess.packageRoot.appendingPathComponent(".build/fleet-map.png").path
    private static let route = SwitchyardProcess.packageRoot.appendingPathComponent("Config/routes/wellington-waterfront.gpx").path

    /// The third bus's map has three layers — its own location and fleet-a's and fleet-b's last
    /// fixes —, its plugin table a row per origin, and `/metrics` a count per origin; a truck
    /// that stops publishing fades.
    @Test(.scaledTimeLimit(minutes: 4)) func oneMapForTheFleet() async throws {
        let server = try await NATSServer()
        let fleet = try Fleet()
        let port = try unusedLocalPort()
        let hq = try fleet.start("hq", [
            #"{"name": "nats", "kind": "nats", "url": "\#(server.url)", "mode": "jetstream", "subscribe": "switchyard.>"}"#,
            #"{"name": "location", "kind": "location-emitter", "distanceFilter": 0, "source": {"replay": "\#(Self.route)", "speed": 1000}}"#,
        ], bus: #""http": {"listen": "127.0.0.1:\#(port)"}"#)
        await hq.wait("hq to connect") { $0.actions("nats/status").last?.payload["status"] == "connected" }
        let root = SwitchyardProcess.packageRoot.appendingPathComponent("Config")
        var trucks: [BusProcess] = []
        for name in ["fleet-a", "fleet-b"] {
            let log = fleet.directory.path(name + ".jsonl")
            trucks.append(try BusProcess(config: root.appendingPathComponent(name + ".json").path, actionLog: log, directory: fleet.directory.url,
                                         environment: ["NATS_URL": server.url, "FLEET_LOG": log]))
        }
        await hq.wait("fixes from both trucks", timeout: .seconds(60)) { bus in
            Set(bus.actions("gps/fix").map(\.source)).isSuperset(of: ["nats:fleet-a", "nats:fleet-b"])
        }
        // Two publishers that are not buses of this version: one sends no time (no lag, not an
        // error), one a time that is not one (ignored and counted); their actions still arrive.
        try Self.publishForeign(port: server.port, origin: "legacy", time: nil)
        try Self.publishForeign(port: server.port, origin: "odd", time: "soon")
        await hq.wait("the foreign actions and the counted header", timeout: .seconds(60)) { bus in
            Set(bus.actions("door/open").map(\.source)) == ["nats:legacy", "nats:odd"]
                && bus.actions("nats/counters").last?.payload["badTimeHeaders"] == 1
        }
        let screenshot = Self.screenshot
        let failures = try await HeadlessChromium.inBrowser("http://127.0.0.1:\(port)/", showing: "document.getElementById('maps-panel').outerHTML") { page in
            let check = page.check
            try check("the fleet map has three layers", #"document.querySelector('#fleet svg')?.dataset.layers === "3""#)
            try check("fleet-a is where it said", Self.layer("fleet-a", at: (48.8584, 2.2945)))
            try check("fleet-b is where it said", Self.layer("fleet-b", at: (45.764, 4.8357)))
            try check("this bus's own position is the route's end", Self.layer("location", at: (-41.2846, 174.7779)))
            try check("the plugin table lists each origin under the bridge",
                      #"['fleet-a', 'fleet-b'].every((name) => document.querySelector(`#plugins tr.origin[data-origin="${name}"][data-relay="nats"]`)?.textContent.includes('gps/fix'))"#)
            try check("each truck's row shows its lag in milliseconds",
                      #"['fleet-a', 'fleet-b'].every((name) => /^lag -?[0-9]+ ms \(largest -?[0-9]+ ms\)$/.test(document.querySelector(`#plugins tr.origin[data-origin="${name}"] .lag`)?.textContent))"#)
            try check("an origin that sends no time shows a dash saying why",
                      #"(() => { const lag = document.querySelector('#plugins tr.origin[data-origin="legacy"] .lag'); return lag?.textContent === "lag —" && lag.title.includes("no Switchyard-Time"); })()"#)
            try check("an unreadable time gives no lag", #"document.querySelector('#plugins tr.origin[data-origin="odd"] .lag')?.textContent === "lag —""#)
            // Asks again at each look: the lag reaches the slice with the bridge's counters, once a second.
            try check("/metrics counts each origin and shows each truck's lag",
                      #"(fetch('/metrics').then((r) => r.text()).then((text) => { window.metricsText = text; }), "#
                        + #"/switchyard_nats_origin_received_total\{plugin="nats",origin="fleet-a"\} [1-9]/.test(window.metricsText || '') && /origin="fleet-b"/.test(window.metricsText) && "#
                        + #"/switchyard_nats_origin_lag_seconds\{plugin="nats",origin="fleet-a"\} -?[0-9.e-]+\n/.test(window.metricsText) && "#
                        + #"!/switchyard_nats_origin_lag_seconds\{plugin="nats",origin="legacy"\}/.test(window.metricsText))"#)
            try page.browser.screenshot(to: screenshot)
        }
        for failure in failures { Issue.record(Comment(rawValue: failure)) }
        // A truck that goes quiet fades on the map and says so in the table (after 30 s).
        #expect(await trucks[1].stop() == 0)
        let quiet = try await HeadlessChromium.inBrowser("http://127.0.0.1:\(port)/", showing: "document.getElementById('maps-panel').outerHTML") { page in
            try page.check("fleet-b fades and fleet-a does not",
                           #"document.querySelector('#fleet g.layer[data-layer="fleet-b"]')?.classList.contains('stale') && "#
                            + #"!document.querySelector('#fleet g.layer[data-layer="fleet-a"]')?.classList.contains('stale') && "#
                            + #"document.querySelector('#plugins tr.origin[data-origin="fleet-b"]')?.textContent.includes('quiet')"#)
        }
        for failure in quiet { Issue.record(Comment(rawValue: failure)) }
        #expect(await trucks[0].stop() == 0)
        #expect(await hq.stop() == 0)
    }

    /// Publishes a `door/open` action as a bus of `origin` would, with `time` as its
    /// `Switchyard-Time` header (none when `nil`).
    private static func publishForeign(port: Int, origin: String, time: String?) throws {
        let headers = "NATS/1.0\r\nSwitchyard-Origin: \(origin)\r\n" + (time.map { "Switchyard-Time: \($0)\r\n" } ?? "") + "\r\n"
        let payload = #"{"door":"rear"}"#
        let text = "CONNECT {\"verbose\":false,\"pedantic\":false,\"headers\":true}\r\n"
            + "HPUB switchyard.door.open \(headers.utf8.count) \(headers.utf8.count + payload.utf8.count)\r\n\(headers)\(payload)\r\nPING\r\n"
        try RawNATSClient.send(Array(text.utf8), port: port)
    }

    /// The JavaScript condition that the fleet map's layer `name` ends at `position`.
    private static func layer(_ name: String, at position: (Double, Double)) -> String {
        let layer = #"document.querySelector('#fleet g.layer[data-layer="\#(name)"]')"#
        return "Math.abs(Number(\(layer)?.dataset.latitude) - \(position.0)) < 1e-6 && Math.abs(Number(\(layer)?.dataset.longitude) - \(position.1)) < 1e-6"
    }

    /// The back office's example config validates.
    @Test func backOfficeConfigValidates() async throws {
        let directory = try TemporaryDirectory()
        let process = try SwitchyardProcess(["validate", SwitchyardProcess.packageRoot.appendingPathComponent("Config/fleet-hq.json").path],
                                            directory: directory.url)
        #expect(await process.exitStatus() == 0, "\(process.stderr)")
    }
}
