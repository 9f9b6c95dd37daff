import FoundationEssentials
import Glibc

/// The time zone wall-clock times without a zone are read in: the system's (`TZ`, else
/// /etc/localtime, as journalctl reads them) or, in tests, a fixed offset.
///
/// A wall-clock time is given as the seconds since 1970 it would be if the wall clock were
/// UTC ("as-if-UTC seconds"), which keeps the calendar arithmetic zone-free.
struct LocalZone: Sendable {
    /// The instant at which the wall clock reads `wall` (as-if-UTC seconds). In a gap of a
    /// daylight-saving change it is the instant the C library picks.
    let instant: @Sendable (_ wall: Int) -> Int
    /// What the wall clock reads at `instant`, in as-if-UTC seconds.
    let wallClock: @Sendable (_ instant: Int) -> Int

    /// The process's local time zone, through `mktime` and `localtime_r`.
    static let system = LocalZone(
        instant: { wall in
            var time = time_t(wall)
            var parts = tm()
            gmtime_r(&time, &parts)
            parts.tm_isdst = -1
            return Int(mktime(&parts))
        },
        wallClock: { instant in
            var time = time_t(instant)
            var parts = tm()
            localtime_r(&time, &parts)
            return Int(timegm(&parts))
        })

    /// A zone `offset` seconds east of UTC all year (`+13:00` is 46800).
    static func fixed(offset: Int) -> LocalZone {
        LocalZone(instant: { $0 - offset }, wallClock: { $0 + offset })
    }
}
