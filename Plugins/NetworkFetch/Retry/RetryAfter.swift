import FoundationEssentials
import Glibc

/// Reads an HTTP `Retry-After` header: delay-seconds (`120`) or an IMF-fixdate
/// (`Wed, 21 Oct 2015 07:28:00 GMT`), the two forms RFC 9110 lets servers send.
enum RetryAfter {
    /// The wait the header asks for: the seconds as given, or the time from `now` until the
    /// date (zero for a date in the past); `nil` when the value is neither form.
    static func delay(_ value: String, now: Date) -> Duration? {
        let text = value.trimmingSpaces()
        if !text.isEmpty, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
            guard let seconds = Int64(text) else { return .seconds(Int64.max) }
            return .seconds(seconds)
        }
        guard let date = parseIMFFixdate(text) else { return nil }
        let interval = date.timeIntervalSince(now)
        return interval > 0 ? .milliseconds(Int64((interval * 1000).rounded(.up))) : .zero
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    private static let weekdays: Set<String> = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]

    /// `Sun, 06 Nov 1994 08:49:37 GMT`; `nil` for anything else.
    static func parseIMFFixdate(_ text: String) -> Date? {
        let parts = text.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 6, parts[0].count == 4, parts[0].hasSuffix(","), weekdays.contains(String(parts[0].prefix(3))),
            parts[1].count == 2, let day = Int(parts[1]), (1...31).contains(day),
            let month = months.firstIndex(of: parts[2]),
            parts[3].count == 4, let year = Int(parts[3]),
            parts[5] == "GMT"
        else { return nil }
        let clock = parts[4].split(separator: ":", omittingEmptySubsequences: false)
        guard clock.count == 3, clock.allSatisfy({ $0.count == 2 }),
            let hour = Int(clock[0]), let minute = Int(clock[1]), let second = Int(clock[2]),
            hour < 24, minute < 60, second < 61
        else { return nil }
        var fields = tm()
        fields.tm_year = Int32(year - 1900)
        fields.tm_mon = Int32(month)
        fields.tm_mday = Int32(day)
        fields.tm_hour = Int32(hour)
        fields.tm_min = Int32(minute)
        fields.tm_sec = Int32(second)
        return Date(timeIntervalSince1970: Double(timegm(&fields)))
    }
}
