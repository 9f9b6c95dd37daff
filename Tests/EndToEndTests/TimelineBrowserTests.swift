import Foundation
import SwitchyardTestSupport
import Testing

/// The dashboard's timeline in headless Chromium, over a real bus: fixes sent as `gps/fix`
/// become `location/changed` (caused by them); dragging the timeline back shows the state and
/// the track as they were; "why" on the latitude names the change and the fix behind it.
@Suite(.serialized, .enabled(if: HeadlessChromium.testsEnabled, "\(HeadlessChromium.missingMessage)"))
struct TimelineBrowserTests {
    /// Where the screenshot goes: a CI artefact beside the build, copied into docs/ for docs/time-travel.md.
    static let screenshot = SwitchyardProcess.packageRoot.appendingPathComponent(".build/timeline.png").path

    @Test func dragBackAndAskWhy() async throws {
        let (bus, port) = try await RunningBus.startServingHTTP(plugins: """
            [{"name": "location", "kind": "location-emitter", "source": {"plugin": "gps"}, "distanceFilter": 0}]
            """)
        let latitudes = [-41.2865, -41.2871, -41.2880, -41.2893, -41.2902]
        var fixes: [Int] = []
        for (index, latitude) in latitudes.enumerated() {
            let fix = #"{"mode": 3, "lat": \#(latitude), "lon": \#(174.7762 + Double(index) * 0.0007), "eph": 4, "time": "2026-11-22T09:30:0\#(index).000Z"}"#
            let sent = try await bus.client(["send", "gps/fix", fix])
            #expect(sent.status == 0, "\(sent.stderr)")
            fixes.append(object(sent.stdout)["id"] as? Int ?? 0)
        }
        var changes: [[String: Any]] = []
        let emitted = try await eventually(interval: .milliseconds(100)) {
            changes = try await bus.client(["journal", "show", "location/changed"]).stdout.split(separator: "\n").map { object(String($0)) }
            return changes.count == latitudes.count
        }
        #expect(emitted, "the emitter did not answer every fix: \(bus.process.stderr)")
        let change = try #require(changes.count > 1 ? changes[1] : nil)
        let changeID = try #require(change["id"] as? Int)
        #expect(change["cause"] as? Int == fixes[1])
        let journal = try await bus.client(["journal", "show"]).stdout.split(separator: "\n").map { object(String($0)) }
        let emittedThen = journal.filter { $0["source"] as? String == "location" && ($0["id"] as? Int ?? .max) <= changeID }.count
        #expect(emittedThen >= 2, "the emitter's availability and two changes")
        let screenshot = Self.screenshot
        let fixID = fixes[1]

        let checks = try await HeadlessChromium.inBrowser("http://127.0.0.1:\(port)/", showing: "document.body.outerHTML") { page in
            let (browser, check) = (page.browser, page.check)
            try check("the live state shows the last latitude",
                      #"document.querySelector('[data-path="location.location.latitude"]')?.lastChild.textContent === "\#(latitudes[4])""#)
            try check("the timeline reaches the journal's end", "Number(document.getElementById('timeline-range').max) > \(changeID)")
            // Drag: the range moves through values to the change, as a pointer does.
            _ = try browser.evaluate("""
                (() => { const range = document.getElementById('timeline-range');
                  for (let id = Number(range.max); id >= \(changeID); id -= 1) { range.value = String(id); range.dispatchEvent(new Event('input')); }
                  return range.value; })()
                """)
            try check("the state after the change is shown", #"document.body.dataset.timelineShown === "\#(changeID)""#)
            try check("the state tree shows the latitude then",
                      #"document.querySelector('[data-path="location.location.latitude"]')?.lastChild.textContent === "\#(latitudes[1])""#)
            try check("the map shows the track up to then", #"document.querySelector('svg[data-plugin="location"]')?.dataset.points === "2""#)
            try check("the plugin table shows the emitted count the journal had then",
                      #"document.querySelector('tr[data-plugin="location"] td[data-column="emitted"]')?.textContent === "\#(emittedThen)""#)
            try check("its last action then is the change",
                      ##"document.querySelector('tr[data-plugin="location"] td[data-column="last action"]')?.textContent.startsWith("#\##(changeID) location/changed")"##)
            try check("its status then is the one bus/started left",
                      #"document.querySelector('tr[data-plugin="location"] td[data-column="status"]')?.textContent === "running""#)
            try check("a live-only counter shows a dash saying why",
                      #"(() => { const cell = document.querySelector('tr[data-plugin="location"] td[data-column="dropped"]'); return cell?.textContent === "—" && cell.title.startsWith("not journaled"); })()"#)
            // The live state, refreshed every second, must not come back by itself.
            Thread.sleep(forTimeInterval: 1.5)
            try check("the state stays at the moment",
                      #"document.querySelector('[data-path="location.location.latitude"]')?.lastChild.textContent === "\#(latitudes[1])""#)
            _ = try browser.evaluate(#"document.querySelector('[data-path="location.location.latitude"]').click()"#)
            try check("why explains the latitude", #"document.getElementById('why').dataset.explained === "location.location.latitude""#)
            try check("why names the location/changed action",
                      ##"document.getElementById('why-text').textContent.startsWith("#\##(changeID) location/changed from location")"##)
            try check("why names its cause, the fix", ##"document.querySelector('#why-causes li')?.textContent === "caused by #\##(fixID) gps/fix from control""##)
            try browser.screenshot(to: screenshot)
            // A drag that moves on while a past state is on its way (answers slowed to 400 ms,
            // a step every 150 ms) asks one question at a time and ends at the last point.
            _ = try browser.evaluate("""
                (() => { window.pastAsked = { now: 0, most: 0, total: 0 };
                  const plain = window.fetch;
                  window.fetch = async (...request) => {
                    if (!String(request[0]).includes("/api/state?at=")) return plain(...request);
                    const asked = window.pastAsked;
                    asked.now += 1; asked.total += 1; asked.most = Math.max(asked.most, asked.now);
                    try { await new Promise((done) => setTimeout(done, 400)); return await plain(...request); } finally { asked.now -= 1; }
                  };
                  const range = document.getElementById('timeline-range');
                  [0, 1, 2, 3, 4].forEach((step) => setTimeout(() => {
                    range.value = String(\(changeID) + 1 + step); range.dispatchEvent(new Event('input')); }, step * 150));
                  return true; })()
                """)
            try check("the slowed drag ends at its last point", #"document.body.dataset.timelineShown === "\#(changeID + 5)""#)
            try check("one past state was asked at a time", "window.pastAsked.most === 1 && window.pastAsked.now === 0 && window.pastAsked.total < 5")
            _ = try browser.evaluate("document.getElementById('timeline-live').click()")
            try check("live returns to now", #"document.body.dataset.timeline === "live" && document.querySelector('[data-path="location.location.latitude"]')?.lastChild.textContent === "\#(latitudes[4])""#)
            try check("the whole track is back", #"document.querySelector('svg[data-plugin="location"]')?.dataset.points === "5""#)
        }
        for failure in checks { Issue.record(Comment(rawValue: failure)) }
        #expect(await bus.stop() == 0)
    }
}
