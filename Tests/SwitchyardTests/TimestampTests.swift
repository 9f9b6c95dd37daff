import Foundation
@testable import Switchyard
@testable import SwitchyardBus
import SwitchyardTestSupport
import Testing

struct TimestampTests {
    /// Times format as `YYYY-MM-DDTHH:MM:SS.mmmZ` in UTC, milliseconds rounded down, also before 1970 and past 9999.
    @Test(arguments: [
        (0.0, "1970-01-01T00:00:00.000Z"),
        (1_795_339_800.125, "2026-11-22T09:30:00.125Z"),
        (-0.5, "1969-12-31T23:59:59.500Z"),
        (951_782_400.5009, "2000-02-29T00:00:00.500Z"),
        (253_402_300_799.5, "9999-12-31T23:59:59.500Z"),
        (253_402_300_800.0, "10000-01-01T00:00:00.000Z"),
    ] as [(Double, String)])
    func formats(seconds: Double, expected: String) {
        #expect(Timestamp.iso8601(Date(timeIntervalSince1970: seconds)) == expected)
    }

    /// What is formatted parses back to the same millisecond.
    @Test(arguments: [0.0, 1_795_339_800.125, -86_400.25, 951_782_400.5, 4_102_444_799.999])
    func parsesBack(seconds: Double) throws {
        let parsed = try #require(Timestamp.parseISO8601(Timestamp.iso8601(Date(timeIntervalSince1970: seconds))))
        #expect(abs(parsed.timeIntervalSince1970 - seconds) < 0.0005)
    }

    /// The calendar fields worked out by arithmetic are the ones `gmtime_r` gives, across
    /// leap years, century rules, negative times and years of any width.
    @Test(arguments: [
        0, -1, 86_399, 86_400, -86_400, -86_401, 951_782_399, 951_782_400, 951_868_800,
        4_107_542_400, -2_203_891_200, -62_135_596_801, -62_167_219_200, -62_167_219_201,
        253_402_300_799, 253_402_300_800, -377_705_116_800,
    ] as [Int64])
    func fieldsMatchGmtime(seconds: Int64) {
        for milliseconds in [0, 1, 999] as [Int64] {
            let total = seconds * 1000 + milliseconds
            expectGmtimeFields(milliseconds: total)
        }
    }

    /// The same for times spread at random over ±10,000 years.
    @Test func randomFieldsMatchGmtime() {
        var generator = SeededGenerator(seed: 0x7173)
        for _ in 0..<20_000 {
            expectGmtimeFields(milliseconds: Int64.random(in: -377_705_116_800_000...253_402_300_800_000, using: &generator))
        }
    }

    private func expectGmtimeFields(milliseconds total: Int64) {
        let date = Date(timeIntervalSince1970: Double(total) / 1000)
        let fields = Timestamp.Fields(date)
        // The instant as the formatter reads it, to the millisecond.
        let read = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        var seconds = time_t(read >= 0 ? read / 1000 : (read - 999) / 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let expected = [Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
                        Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec)]
        let actual = [fields.year, fields.month, fields.day, fields.hour, fields.minute, fields.second]
        #expect(fields.milliseconds == Int(read - Int64(seconds) * 1000))
        #expect(actual == expected, "at \(total) ms")
    }
}
