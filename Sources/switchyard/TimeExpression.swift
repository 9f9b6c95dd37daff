import FoundationEssentials
import Glibc
import SwitchyardBus

/// A point in time as people type it after `--since` and `--until`, with journalctl's habits:
///
/// - an ISO 8601 time with a zone: `2026-11-22T09:30:00Z`, `2026-11-22T09:30:00.125+13:00`;
/// - a local date or time without a zone, read in ``LocalZone``: `2026-11-28` (its midnight),
///   `"2026-11-28 09:30"`, `2026-11-28T09:30:15`, `09:30` (today);
/// - `now`, `today`, `yesterday`, `tomorrow` (midnights, local);
/// - a time relative to now: `-5m`, `+1h`, `1h ago`, `"1 hour ago"`, `"2 days 3 hours ago"`
///   (units s, m/min, h, d, w and their spelled-out names).
struct TimeExpression {
    /// The moment relative times count from.
    var now: Date
    var zone: LocalZone

    /// What ``parse(_:)`` accepts, for error messages.
    static let forms = "an ISO 8601 time (2026-11-22T09:30:00Z), a local date or time (2026-11-28, \"2026-11-28 09:30\", 09:30), "
        + "today, yesterday, now, or a relative time (-5m, \"1 hour ago\")"

    /// The instant `text` names; `nil` when it is none of the forms above.
    func parse(_ text: String) -> Date? {
        let text = text.trimmingSpaces().lowercased()
        if let zoned = Timestamp.parseISO8601(text.uppercased()) { return zoned }
        switch text {
        case "now": return now
        case "today": return midnight(daysFromToday: 0)
        case "yesterday": return midnight(daysFromToday: -1)
        case "tomorrow": return midnight(daysFromToday: 1)
        default: return relative(text) ?? absolute(text)
        }
    }

    private var nowWall: Int { zone.wallClock(Int(now.timeIntervalSince1970.rounded(.down))) }

    private func midnight(daysFromToday days: Int) -> Date {
        let today = Self.floor(nowWall, to: 86_400)
        return Date(timeIntervalSince1970: Double(zone.instant(today + days * 86_400)))
    }

    /// `-5m`, `+1h30m`, `5m ago`, `1 hour ago`: a sign or `ago`, never neither (journalctl
    /// refuses a bare `5m` too: past or future?).
    private func relative(_ text: String) -> Date? {
        var rest = Substring(text)
        var sign = 0
        if rest.hasPrefix("-") || rest.hasPrefix("+") {
            sign = rest.hasPrefix("-") ? -1 : 1
            rest = rest.dropFirst()
        }
        if rest.hasSuffix(" ago"), sign == 0 {
            sign = -1
            rest = rest.dropLast(4)
        }
        guard sign != 0, let seconds = Self.duration(rest) else { return nil }
        return now.addingTimeInterval(Double(sign) * seconds)
    }

    private static let units: [(names: [String], seconds: Double)] = [
        (["s", "sec", "secs", "second", "seconds"], 1),
        (["m", "min", "mins", "minute", "minutes"], 60),
        (["h", "hr", "hrs", "hour", "hours"], 3600),
        (["d", "day", "days"], 86_400),
        (["w", "week", "weeks"], 604_800),
    ]

    /// `1h30m`, `1 hour 30 min`, `90s`: numbers each followed by a unit.
    private static func duration(_ text: Substring) -> Double? {
        let match = #/\s*(\d+(?:\.\d+)?)\s*([a-z]+)/#
        var rest = text
        var total = 0.0
        var terms = 0
        while !rest.allSatisfy(\.isWhitespace) {
            guard let found = rest.prefixMatch(of: match), let value = Double(found.output.1),
                let unit = units.first(where: { $0.names.contains(String(found.output.2)) })
            else { return nil }
            total += value * unit.seconds
            terms += 1
            rest = rest[found.range.upperBound...]
        }
        return terms > 0 ? total : nil
    }

    /// `2026-11-28`, `2026-11-28 09:30[:15[.5]]` (also with `T`), `09:30[:15]`: wall-clock
    /// times, read in the zone.
    private func absolute(_ text: String) -> Date? {
        let dated = #/(\d{4})-(\d{2})-(\d{2})(?:[ t](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?)?/#
        let timed = #/(\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?/#
        let day: Int
        let clock: (hour: Substring?, minute: Substring?, second: Substring?, fraction: Substring?)
        if let found = text.wholeMatch(of: dated) {
            guard let date = Self.day(year: Int(found.output.1)!, month: Int(found.output.2)!, day: Int(found.output.3)!) else { return nil }
            day = date
            clock = (found.output.4, found.output.5, found.output.6, found.output.7)
        } else if let found = text.wholeMatch(of: timed) {
            day = Self.floor(nowWall, to: 86_400)
            clock = (found.output.1, found.output.2, found.output.3, found.output.4)
        } else {
            return nil
        }
        let hour = clock.hour.flatMap { Int($0) } ?? 0
        let minute = clock.minute.flatMap { Int($0) } ?? 0
        let second = clock.second.flatMap { Int($0) } ?? 0
        guard hour < 24, minute < 60, second < 61 else { return nil }
        let fraction = clock.fraction.flatMap { Double("0" + $0) } ?? 0
        let wall = day + hour * 3600 + minute * 60 + second
        return Date(timeIntervalSince1970: Double(zone.instant(wall)) + fraction)
    }

    /// The as-if-UTC seconds of a calendar day's midnight; `nil` for a day that does not exist.
    private static func day(year: Int, month: Int, day: Int) -> Int? {
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        let seconds = Int(timegm(&parts))
        // timegm normalizes February 30 into March: a day that moved did not exist.
        guard parts.tm_mday == Int32(day), parts.tm_mon == Int32(month - 1) else { return nil }
        return seconds
    }

    private static func floor(_ value: Int, to step: Int) -> Int {
        value - ((value % step) + step) % step
    }
}
