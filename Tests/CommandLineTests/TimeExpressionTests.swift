import FoundationEssentials
import SwitchyardBus
import Testing
@testable import switchyard

/// `--since` and `--until` read times as journalctl does, on an injected clock and zone.
struct TimeExpressionTests {
    /// 2026-11-28T09:30:00Z: 22:30 on the 28th in Wellington (+13:00), 04:30 in New York (-05:00).
    static let now = Timestamp.parseISO8601("2026-11-28T09:30:00Z")!
    static let wellington = LocalZone.fixed(offset: 13 * 3600)
    static let newYork = LocalZone.fixed(offset: -5 * 3600)

    private func parse(_ text: String, zone: LocalZone = wellington) -> Date? {
        TimeExpression(now: Self.now, zone: zone).parse(text)
    }

    /// Each form names the instant journalctl would (local forms in Wellington).
    @Test(arguments: [
        ("2026-11-22T09:30:00Z", "2026-11-22T09:30:00.000Z"),
        ("2026-11-22T09:30:00.125+13:00", "2026-11-21T20:30:00.125Z"),
        ("2026-11-28", "2026-11-27T11:00:00.000Z"),
        ("2026-11-28 09:30", "2026-11-27T20:30:00.000Z"),
        ("2026-11-28T09:30:15", "2026-11-27T20:30:15.000Z"),
        ("2026-11-28 09:30:15.5", "2026-11-27T20:30:15.500Z"),
        ("09:30", "2026-11-27T20:30:00.000Z"),
        ("now", "2026-11-28T09:30:00.000Z"),
        ("today", "2026-11-27T11:00:00.000Z"),
        ("Yesterday", "2026-11-26T11:00:00.000Z"),
        ("tomorrow", "2026-11-28T11:00:00.000Z"),
        ("-5m", "2026-11-28T09:25:00.000Z"),
        ("+1h", "2026-11-28T10:30:00.000Z"),
        ("-1h30m", "2026-11-28T08:00:00.000Z"),
        ("1h ago", "2026-11-28T08:30:00.000Z"),
        ("1 hour ago", "2026-11-28T08:30:00.000Z"),
        ("2 days 3 hours ago", "2026-11-26T06:30:00.000Z"),
        ("90 s ago", "2026-11-28T09:28:30.000Z"),
        ("1 week ago", "2026-11-21T09:30:00.000Z"),
    ])
    func readsLikeJournalctl(text: String, expected: String) {
        #expect(parse(text).map(Timestamp.iso8601) == expected)
    }

    /// Local forms follow the zone; zoned and relative ones do not.
    @Test(arguments: [
        ("today", "2026-11-28T05:00:00.000Z"),
        ("yesterday", "2026-11-27T05:00:00.000Z"),
        ("2026-11-28 09:30", "2026-11-28T14:30:00.000Z"),
        ("2026-11-22T09:30:00Z", "2026-11-22T09:30:00.000Z"),
        ("-5m", "2026-11-28T09:25:00.000Z"),
    ])
    func localFormsFollowTheZone(text: String, expected: String) {
        #expect(parse(text, zone: Self.newYork).map(Timestamp.iso8601) == expected)
    }

    /// Anything else is no time: a bare `5m` (past or future?), impossible dates and clocks,
    /// unknown units.
    @Test(arguments: ["soon", "5m", "", "2026-02-30", "2026-13-01", "25:00", "2026-11-28 9:30", "1 fortnight ago", "ago", "5m from now"])
    func refusesTheRest(text: String) {
        #expect(parse(text) == nil)
    }

    /// An action id stays an id; a time becomes a time bound; anything else is a usage error
    /// that lists the forms.
    @Test func boundsOfTheJournalCommands() throws {
        #expect(try JournalQuery.Bound("42", option: "since", path: [], now: Self.now, zone: Self.wellington) == .id(42))
        let yesterday = try JournalQuery.Bound("yesterday", option: "since", path: [], now: Self.now, zone: Self.wellington)
        #expect(yesterday == .time(Timestamp.parseISO8601("2026-11-26T11:00:00Z")!))
        #expect(throws: UsageError.self) { try JournalQuery.Bound("soon", option: "until", path: [], now: Self.now, zone: Self.wellington) }
        do {
            _ = try JournalQuery.Bound("soon", option: "until", path: [], now: Self.now, zone: Self.wellington)
        } catch {
            #expect(error.description.contains("--until expects an action id or a time"))
            #expect(error.description.contains("\"1 hour ago\""))
        }
    }
}
