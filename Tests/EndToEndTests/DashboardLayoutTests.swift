import Foundation
import SwitchyardTestSupport
import Testing

/// The dashboard's layout at a laptop's and a phone's size, in headless Chromium, with
/// screenshots beside the build (`.build/dashboard-WIDTHxHEIGHT.png`) for a person to look at.
@Suite(.serialized, .enabled(if: HeadlessChromium.testsEnabled, "\(HeadlessChromium.missingMessage)"))
struct DashboardLayoutTests {
    static func screenshot(_ width: Int, _ height: Int) -> String {
        SwitchyardProcess.packageRoot.appendingPathComponent(".build/dashboard-\(width)x\(height).png").path
    }

    /// At 1280×900 the feed, and the timeline under it, reach the bottom of its panel (no blank
    /// area under them); at 390×844
    /// nothing is wider than the screen; both show the uptime in minutes and seconds.
    @Test(arguments: [(1280, 900), (390, 844)])
    func layoutFitsTheScreen(width: Int, height: Int) async throws {
        let (bus, port) = try await RunningBus.startServingHTTP(plugins: """
            [{"name": "location", "kind": "location-emitter", "distanceFilter": 0,
              "source": {"replay": "\(TrackExportTests.route)", "speed": 1000}},
             {"name": "tick", "kind": "timer", "interval": 0.25, "type": "tick/beat"}]
            """)
        let url = "http://127.0.0.1:\(port)/"
        let path = Self.screenshot(width, height)
        let failures = try await HeadlessChromium.inBrowser(url, width: width, height: height, showing: "document.body.outerHTML") { page in
            let browser = page.browser
            try page.check("the feed is live", #"document.body.dataset.connection === "live" && document.querySelectorAll('#feed .row').length > 3"#)
            try page.check("the uptime is in words", #"/ · up (\d+ (d|h|min) )*\d+ s$/.test(document.getElementById("bus").textContent)"#)
            try page.check("durations read as people say them",
                           #"formatDuration(297) === "4 min 57 s" && formatDuration(3725) === "1 h 2 min 5 s" && formatDuration(9) === "9 s""#
                             + #" && formatDuration(90061) === "1 d 1 h 1 min 1 s""#)
            if width > 900 {
                let gap = try browser.evaluate("""
                    (() => { const panel = document.getElementById("actions-panel").getBoundingClientRect();
                             const timeline = document.getElementById("timeline").getBoundingClientRect();
                             return Math.round(panel.bottom - timeline.bottom); })()
                    """) as? Int ?? -1
                if !(0...24).contains(gap) { page.fail("the feed and its timeline end \(gap) px above the bottom of their panel") }
            }
            let overflow = try browser.evaluate("document.documentElement.scrollWidth - window.innerWidth") as? Int ?? -1
            if overflow > 0 { page.fail("the page is \(overflow) px wider than the \(width) px screen") }
            try browser.screenshot(to: path)
        }
        for failure in failures { Issue.record(Comment(rawValue: failure)) }
        #expect(FileManager.default.fileExists(atPath: path))
        #expect(await bus.stop() == 0)
    }
}
