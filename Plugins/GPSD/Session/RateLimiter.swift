/// Lets one event through per interval, timed by when events arrive.
///
/// The first event passes; later ones pass once `interval` has gone by since the last that
/// passed. Receive time, not a report's own time, decides: gpsd shifts old captures by 1024
/// weeks and receivers jump back in time.
struct RateLimiter: Sendable, Hashable {
    /// The shortest time between two events let through; zero lets everything through.
    let interval: Duration
    private var lastAdmitted: Duration?

    /// Creates a limiter that has let nothing through yet.
    init(interval: Duration) {
        self.interval = interval
    }

    /// Whether an event arriving at `now` (time since some fixed start) passes; records it if so.
    mutating func admit(at now: Duration) -> Bool {
        if let lastAdmitted, now - lastAdmitted < interval { return false }
        lastAdmitted = now
        return true
    }
}
