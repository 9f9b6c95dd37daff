import FoundationEssentials
import Glibc

/// ISO 8601 timestamps in UTC with milliseconds (`2026-11-22T09:30:00.125Z`), written by hand
/// because the logger formats one per action and Foundation's formatters are slow on Linux.
public enum Timestamp {
    /// Formats `date` as `YYYY-MM-DDTHH:MM:SS.mmmZ`.
    public static func iso8601(_ date: Date) -> String {
        let fields = Fields(date)
        // Every journal line and every logged action carries one of these, so the usual
        // four-digit year is written digit by digit into one buffer: building it from
        // `String(Int)` pieces cost about 20 times as many instructions.
        guard (0...9999).contains(fields.year) else { return spelled(fields) }
        return String(unsafeUninitializedCapacity: 24) { write(fields, into: $0) }
    }

    /// Appends `date` formatted as ``iso8601(_:)`` does, without building a string: the
    /// journal, the control socket and the logger write one per action.
    package static func appendISO8601(_ date: Date, to output: inout [UInt8]) {
        let fields = Fields(date)
        guard (0...9999).contains(fields.year) else {
            output.append(contentsOf: spelled(fields).utf8)
            return
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { buffer in
            let count = write(fields, into: buffer)
            output.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<count]))
        }
    }

    /// Writes `date` as ``iso8601(_:)`` formats it into `buffer`, which holds at least 24 bytes,
    /// and returns the count written: 24, or 0 for a year without four digits (which
    /// ``appendISO8601(_:to:)`` spells instead).
    static func write(_ date: Date, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        let fields = Fields(date)
        guard (0...9999).contains(fields.year), buffer.count >= 24 else { return 0 }
        return write(fields, into: buffer)
    }

    /// The calendar fields of a date in UTC (proleptic Gregorian, as `gmtime_r` gives them),
    /// worked out by arithmetic: `gmtime_r` takes glibc's time-zone lock and checks `TZ` on
    /// every call, which the journal, the logger and every watcher paid once per action each.
    struct Fields: Hashable {
        var year: Int
        /// 1–12.
        var month: Int
        /// 1–31.
        var day: Int
        var hour: Int
        var minute: Int
        var second: Int
        var milliseconds: Int

        init(_ date: Date) {
            let totalMilliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
            let seconds = totalMilliseconds >= 0 ? totalMilliseconds / 1000 : (totalMilliseconds - 999) / 1000
            milliseconds = Int(totalMilliseconds - seconds * 1000)
            let days = seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400
            let secondOfDay = Int(seconds - days * 86400)
            hour = secondOfDay / 3600
            minute = secondOfDay / 60 % 60
            second = secondOfDay % 60
            // Days since 1970-01-01 to a civil date, counting in 400-year eras that start on
            // March 1st so the leap day comes last (Howard Hinnant's `civil_from_days`).
            let shifted = days + 719_468
            let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
            let dayOfEra = shifted - era * 146_097
            let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
            let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
            let monthFromMarch = (5 * dayOfYear + 2) / 153
            day = Int(dayOfYear - (153 * monthFromMarch + 2) / 5 + 1)
            month = Int(monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9)
            year = Int(yearOfEra + era * 400) + (month <= 2 ? 1 : 0)
        }
    }

    /// Writes the 24 bytes of a timestamp whose year has four digits, or with `year` false
    /// the 20 that follow the year; returns the count.
    private static func write(_ fields: Fields, year: Bool = true, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        var index = 0
        func put(_ value: Int, width: Int) {
            var divisor = 1
            for _ in 1..<width { divisor *= 10 }
            var rest = value
            while divisor > 0 {
                buffer[index] = UInt8(ascii: "0") &+ UInt8(rest / divisor)
                rest %= divisor
                divisor /= 10
                index += 1
            }
        }
        func put(_ byte: Unicode.Scalar) {
            buffer[index] = UInt8(ascii: byte)
            index += 1
        }
        if year { put(fields.year, width: 4) }
        put("-")
        put(fields.month, width: 2)
        put("-")
        put(fields.day, width: 2)
        put("T")
        put(fields.hour, width: 2)
        put(":")
        put(fields.minute, width: 2)
        put(":")
        put(fields.second, width: 2)
        put(".")
        put(fields.milliseconds, width: 3)
        put("Z")
        return index
    }

    /// The same format for a year outside 0-9999, which a fixed-width buffer cannot hold.
    private static func spelled(_ fields: Fields) -> String {
        let year = String(fields.year)
        let padding = String(repeating: "0", count: max(0, 4 - year.count))
        return padding + year + String(unsafeUninitializedCapacity: 20) { write(fields, year: false, into: $0) }
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`; `nil` for anything else.
    public static func parseISO8601(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20 else { return nil }
        func number(_ start: Int, _ count: Int) -> Int? {
            guard start + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[start..<start + count] {
                guard (48...57).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        guard let year = number(0, 4), bytes[4] == 45, let month = number(5, 2), bytes[7] == 45,
            let day = number(8, 2), bytes[10] == 84 || bytes[10] == 116, let hour = number(11, 2),
            bytes[13] == 58, let minute = number(14, 2), bytes[16] == 58, let second = number(17, 2),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var index = 19
        var fraction = 0.0
        if index < bytes.count, bytes[index] == 46 {
            index += 1
            var scale = 0.1
            let start = index
            while index < bytes.count, (48...57).contains(bytes[index]) {
                fraction += Double(bytes[index] - 48) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        var offsetSeconds = 0
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case 90, 122:
            index += 1
        case 43, 45:
            guard let offsetHours = number(index + 1, 2), bytes.count > index + 3, bytes[index + 3] == 58,
                let offsetMinutes = number(index + 4, 2)
            else { return nil }
            offsetSeconds = (offsetHours * 3600 + offsetMinutes * 60) * (bytes[index] == 45 ? -1 : 1)
            index += 6
        default:
            return nil
        }
        guard index == bytes.count else { return nil }
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        let seconds = timegm(&parts)
        return Date(timeIntervalSince1970: Double(seconds - offsetSeconds) + fraction)
    }
}
