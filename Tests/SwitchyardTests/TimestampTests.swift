import Foundation
import Switchyard
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
}
