import SwitchyardBus
import Testing

/// Type patterns: exact, domain, event of any domain, everything, and several at once.
struct TypePatternTests {
    static let types = ["gps/fix", "gps/status", "location/changed", "places/changed", "bus/started", "location/changed/late"]

    /// Each pattern matches exactly the types listed.
    @Test(arguments: [
        ("*", types),
        ("gps/fix", ["gps/fix"]),
        ("gps/*", ["gps/fix", "gps/status"]),
        ("*/changed", ["location/changed", "places/changed"]),
        ("*/changed/late", ["location/changed/late"]),
        ("*/*", types),
        ("gps/* location/*", ["gps/fix", "gps/status", "location/changed", "location/changed/late"]),
        ("gps/fix,*/changed", ["gps/fix", "location/changed", "places/changed"]),
        ("bus/started  gps/fix", ["gps/fix", "bus/started"]),
        ("gps/* *", types),
    ])
    func matches(pattern: String, expected: [String]) throws {
        let parsed = try #require(TypePattern(pattern))
        #expect(Self.types.filter(parsed.matches) == expected)
    }

    /// What is written is read back the same: the control protocol and the HTTP API carry a
    /// pattern as its description.
    @Test(arguments: ["*", "gps/fix", "gps/*", "*/changed", "gps/* location/*", "gps/* */changed bus/started"])
    func descriptionReadsBack(pattern: String) throws {
        let parsed = try #require(TypePattern(pattern))
        #expect(parsed.description == pattern)
        #expect(TypePattern(parsed.description) == parsed)
    }

    /// Separators and repeats are normalized; `*` among others is everything.
    @Test func normalizedDescriptions() {
        #expect(TypePattern("gps/*,location/*")?.description == "gps/* location/*")
        #expect(TypePattern("gps/* gps/*")?.description == "gps/*")
        #expect(TypePattern("gps/* *")?.description == "*")
        #expect(TypePattern("gps/fix,")?.description == "gps/fix")
    }

    /// Anything else is refused, also when only one part is wrong.
    @Test(arguments: ["", " ", "GPS/fix", "gps", "*/", "*/Changed", "**", "gps/* nope", "*/x/"])
    func refuses(pattern: String) {
        #expect(TypePattern(pattern) == nil)
    }
}
