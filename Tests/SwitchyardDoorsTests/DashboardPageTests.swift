import Testing
@testable import SwitchyardBus
@testable import SwitchyardDoors

/// The dashboard page learns from the server which kinds carry positions, and where.
struct DashboardPageTests {
    private static let source = PositionSource(action: "at", latitude: "y", longitude: "x", time: "when", horizontalAccuracy: "error", minimumMode: 2)

    /// The page's script gets each kind's source as data, and nothing else maps positions.
    @Test func positionSourcesAreEmbedded() {
        let page = DashboardPage.html(positionSources: [("beacon", Self.source)])
        #expect(page.contains(#"const POSITION_SOURCES = {"beacon":{"action":"at","horizontalAccuracy":"error","latitude":"y","longitude":"x","minimumMode":2,"time":"when"}};"#))
        #expect(DashboardPage.html(positionSources: []).contains("const POSITION_SOURCES = {};"))
    }

    /// A name that would end the script element stays inside the data.
    @Test func dataCannotEndTheScript() {
        let page = DashboardPage.html(positionSources: [("x</script><script>alert(1)//", Self.source)])
        #expect(!page.contains("x</script>"))
        #expect(page.contains(#""x\u003c/script>\u003cscript>alert(1)//":"#))
    }
}
