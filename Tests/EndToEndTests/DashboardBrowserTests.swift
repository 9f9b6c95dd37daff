import Foundation
import SwitchyardTestSupport
import Testing

/// The dashboard in a real browser: headless Chromium loads `GET /` from a real bus whose
/// location emitter replayed the demo route and whose timer keeps the feed moving.
@Suite(.serialized, .enabled(if: HeadlessChromium.testsEnabled, "\(HeadlessChromium.missingMessage)"))
struct DashboardBrowserTests {
    /// Where the screenshot goes: a CI artefact beside the build, copied into docs/ for docs/http.md.
    static let screenshot = SwitchyardProcess.packageRoot.appendingPathComponent(".build/dashboard.png").path

    /// The feed updates live, the state tree shows the location, and the map's polyline has one
    /// point per replayed position; a click on an action shows it with its cause chain.
    @Test func dashboardShowsTheBus() async throws {
        let route = try TrackExportTests.routePoints()
        let (bus, port) = try await RunningBus.startServingHTTP(plugins: """
            [{"name": "location", "kind": "location-emitter", "distanceFilter": 0,
              "source": {"replay": "\(TrackExportTests.route)", "speed": 1000}},
             {"name": "gps", "kind": "gpsd", "host": "127.0.0.1", "port": 9},
             {"name": "tick", "kind": "timer", "interval": 0.25, "type": "tick/beat"}]
            """)
        let replayed = try await eventually(timeout: .seconds(60), interval: .milliseconds(200)) {
            try await bus.client(["journal", "show", "location/availability"]).stdout.contains("the replay of")
        }
        #expect(replayed, "the replay did not end: \(bus.process.stderr)")
        let last = try #require(route.last)
        let url = "http://127.0.0.1:\(port)/"
        let screenshot = Self.screenshot

        let checks = try await HeadlessChromium.inBrowser(url, showing: "document.body.outerHTML") { page in
            let (browser, check) = (page.browser, page.check)
            try check("the feed is live", #"document.body.dataset.connection === "live" && Number(document.body.dataset.feedReceived) > 0"#)
            let received = try browser.evaluate("Number(document.body.dataset.feedReceived)") as? Int ?? 0
            try check("the feed updates", "Number(document.body.dataset.feedReceived) >= \(received + 3) && document.querySelectorAll('#feed .row').length > 0")
            try check("the map has the whole track", #"document.querySelector('svg[data-plugin="location"]')?.dataset.points === "\#(route.count)""#)
            let points = try browser.evaluate(#"document.querySelector('svg[data-plugin="location"] polyline').getAttribute("points").trim().split(/\s+/).length"#) as? Int
            if points != route.count { page.fail("the polyline has \(points ?? -1) points, not \(route.count)") }
            try check("the state shows the location",
                      #"document.querySelector('[data-path="location.location.latitude"]')?.lastChild.textContent === "\#(last.0)""#)
            try check("plugin health lists every plugin", #"document.querySelectorAll('#plugins tr[data-plugin]').length === 3"#)
            try check("a gpsd plugin gets a map too", #"document.querySelector('svg[data-plugin="gps"]') !== null"#)
            // A timer beat's chain: none (it came from the timer); then a click on a feed row.
            _ = try browser.evaluate("document.querySelector('#feed .row').click()")
            try check("a click shows the action and its causes",
                      "!document.getElementById('detail').hidden && document.getElementById('detail-json').textContent.includes('\"id\"') "
                        + "&& document.querySelectorAll('#detail-causes li').length > 0")
            try browser.screenshot(to: screenshot)
        }
        for failure in checks { Issue.record(Comment(rawValue: failure)) }
        #expect(FileManager.default.fileExists(atPath: screenshot))
        #expect(await bus.stop() == 0)
    }

    /// With `bus.http.tiles`, the map draws one image per tile from the template under the
    /// track (before the polyline in the SVG), and credits OpenStreetMap.
    @Test func tilesAreDrawnUnderTheTrack() async throws {
        let route = try TrackExportTests.routePoints()
        // Nothing listens on port 9: the browser's tile requests fail, the elements are still drawn.
        let (bus, port) = try await RunningBus.startServingHTTP(http: #""tiles": "http://127.0.0.1:9/{z}/{x}/{y}.png""#, plugins: """
            [{"name": "location", "kind": "location-emitter", "distanceFilter": 0,
              "source": {"replay": "\(TrackExportTests.route)", "speed": 1000}}]
            """)
        let url = "http://127.0.0.1:\(port)/"
        let map = #"svg[data-plugin="location"]"#
        let failures = try await HeadlessChromium.inBrowser(url, showing: "document.querySelector('\(map)')?.outerHTML") { page in
            let check = page.check
            try check("the map has the whole track", "document.querySelector('\(map)')?.dataset.points === '\(route.count)'")
            try check("tiles are drawn from the template",
                      "[...document.querySelectorAll('\(map) image')].length > 0 && [...document.querySelectorAll('\(map) image')]"
                        + ".every((image) => /^http:\\/\\/127\\.0\\.0\\.1:9\\/\\d+\\/\\d+\\/\\d+\\.png$/.test(image.getAttribute('href')))")
            try check("the tiles lie under the track",
                      "[...document.querySelector('\(map)').children].findIndex((node) => node.tagName === 'polyline')"
                        + " > [...document.querySelector('\(map)').children].findIndex((node) => node.tagName === 'image')")
            try check("the tiles are credited", "document.querySelector('\(map)').textContent.includes('OpenStreetMap')")
        }
        for failure in failures { Issue.record(Comment(rawValue: failure)) }
        #expect(await bus.stop() == 0)
    }
}
