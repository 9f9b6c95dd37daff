@testable import GPSDPlugin
import SwitchyardBus
import Testing

/// A gpsd line nested past the door limit is set aside as malformed, like any garbage.
struct GPSDLineLimitTests {
    /// One level past the door depth is malformed and names the limit; the door depth is a report.
    @Test(arguments: [(JSONLimits.maximumDepth, true), (JSONLimits.maximumDepth + 1, false), (600, false)])
    func nesting(depth: Int, accepted: Bool) {
        let inner = String(repeating: "[", count: depth - 1) + String(repeating: "]", count: depth - 1)
        let line = GPSDLine(parsing: Array(#"{"class":"TPV","mode":3,"extra":\#(inner)}"#.utf8))
        switch line {
        case .report:
            #expect(accepted)
        case .malformed(let reason):
            #expect(!accepted)
            #expect(reason.contains("nested deeper than \(JSONLimits.maximumDepth)"))
        case .ignored, .notJSON:
            Issue.record("unexpected \(line)")
        }
    }
}
