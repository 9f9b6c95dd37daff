import SwitchyardBus
import Testing

@testable import NATSPlugin

/// The mapping between action types and subjects, and subject patterns.
struct SubjectTests {
    /// Types map to subjects and back, one to one, dots inside segments included.
    @Test(arguments: [
        ("switchyard", "gps/fix", "switchyard.gps.fix"),
        ("fleet.eu", "location/changed", "fleet.eu.location.changed"),
        ("switchyard", "gps/fix.v2/raw_1", "switchyard.gps.fix~v2.raw_1"),
        ("switchyard", "a-b/c", "switchyard.a-b.c"),
    ])
    func mapsTypes(_ prefix: String, _ type: String, _ subject: String) throws {
        let mapping = try SubjectMapping(prefix: prefix)
        #expect(mapping.subject(for: type) == subject)
        #expect(try mapping.actionType(for: subject) == type)
    }

    /// Type patterns become the subject patterns that receive them.
    @Test(arguments: [("*", "switchyard.>"), ("gps/*", "switchyard.gps.>"), ("gps/fix", "switchyard.gps.fix"), ("a.b/*", "switchyard.a~b.>")])
    func mapsPatterns(_ pattern: String, _ subject: String) throws {
        #expect(SubjectMapping.standard.subjectPattern(for: try #require(TypePattern(pattern))) == subject)
    }

    /// Subjects that do not stand for an action type are errors that say why.
    @Test(arguments: [
        ("other.gps.fix", "the subject \"other.gps.fix\" is not \"switchyard.DOMAIN.EVENT\""),
        ("switchyard.gps", "the subject \"switchyard.gps\" is not \"switchyard.DOMAIN.EVENT\""),
        ("switchyard.GPS.fix", "the subject \"switchyard.GPS.fix\" does not name a valid action type (lower-case letters, digits, '-', '_' and '~' in each token)"),
    ])
    func rejectsSubjects(_ subject: String, _ message: String) {
        #expect(throws: SubjectError(description: message)) {
            try SubjectMapping.standard.actionType(for: subject)
        }
    }

    /// Patterns match subjects as NATS does: `*` one token, `>` one or more at the end.
    @Test(arguments: [
        ("a.b.c", "a.b.c", true), ("a.*.c", "a.x.c", true), ("a.*.c", "a.x.y.c", false), ("a.>", "a.b", true),
        ("a.>", "a.b.c.d", true), ("a.>", "a", false), ("*", "a", true), ("*", "a.b", false), ("a.b", "a.b.c", false),
    ])
    func matches(_ pattern: String, _ subject: String, _ expected: Bool) throws {
        #expect(try SubjectPattern(pattern).matches(subject) == expected)
    }

    /// A pattern covers another when it matches everything the other does.
    @Test(arguments: [
        ("switchyard.>", "switchyard.gps.>", true), ("switchyard.>", "switchyard.gps.fix", true), ("switchyard.gps.>", "switchyard.>", false),
        ("switchyard.*.fix", "switchyard.gps.fix", true), ("switchyard.*", "switchyard.>", false), ("other.>", "switchyard.gps.fix", false),
    ])
    func covers(_ pattern: String, _ other: String, _ expected: Bool) throws {
        #expect(try SubjectPattern(pattern).covers(SubjectPattern(other)) == expected)
    }

    /// Bad patterns and prefixes are errors that say why.
    @Test(arguments: [
        ("", "a subject cannot be empty"),
        ("a..b", "\"a..b\" has an empty token (two dots, or a dot at an end)"),
        ("a.b.", "\"a.b.\" has an empty token (two dots, or a dot at an end)"),
        ("a b", "\"a b\" contains white space or control characters"),
        ("a.b*", "\"a.b*\" uses a wildcard inside a token; \"*\" and \">\" must stand alone"),
        ("a.>.b", "\"a.>.b\" has \">\" before its last token"),
    ])
    func rejectsPatterns(_ text: String, _ message: String) {
        #expect(throws: SubjectError(description: message)) { try SubjectPattern(text) }
    }

    /// A prefix may not contain wildcards; patterns outside it are recognised.
    @Test func prefixes() throws {
        #expect(throws: SubjectError(description: "\"a.*\" contains a wildcard, which is not allowed here")) { try SubjectMapping(prefix: "a.*") }
        let mapping = try SubjectMapping(prefix: "fleet.eu")
        #expect(mapping.contains(try SubjectPattern("fleet.eu.gps.>")))
        #expect(!mapping.contains(try SubjectPattern("fleet.eu")))
        #expect(!mapping.contains(try SubjectPattern(">")))
        #expect(!mapping.contains(try SubjectPattern("fleet.us.>")))
    }
}
