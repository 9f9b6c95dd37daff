/// Decides which samples are significant enough to become `NAME/changed`.
///
/// Checks run in order: a usable fix (mode ≥ `minimumMode` with a position), horizontal error,
/// duplicate of the last emitted (time, latitude, longitude), minimum interval since the last
/// emitted (by receive time, never the sample's own time), then the great-circle distance to
/// the last emitted point.
struct LocationFilter: Sendable {
    /// The filter's thresholds.
    struct Settings: Sendable, Hashable {
        /// The lowest fix mode accepted: 2 (2D) or 3 (3D). Default: 2.
        var minimumMode = 2
        /// The largest horizontal error accepted, metres; `nil` (the default) accepts any.
        /// A sample without an error estimate is accepted.
        var maximumHorizontalError: Double?
        /// The distance from the last emitted point a sample must reach, metres. Default: 0.
        var distanceFilter = 0.0
        /// The shortest time between two emitted samples. Default: zero.
        var minimumInterval = Duration.zero
    }

    /// The decision on one sample.
    enum Verdict: Sendable, Hashable {
        /// Emit it.
        case accepted
        /// Mode below the minimum, or no position.
        case noFix
        /// Horizontal error above the maximum.
        case inaccurate
        /// Same time and position as the last emitted sample.
        case duplicate
        /// Less than the minimum interval after the last emitted sample.
        case tooSoon
        /// Closer than the distance filter to the last emitted point.
        case tooClose
    }

    /// The thresholds.
    let settings: Settings
    private var last: (sample: PositionSample, coordinate: Coordinate, receivedAt: Duration)?

    /// Creates a filter that has emitted nothing yet.
    init(settings: Settings) {
        self.settings = settings
    }

    /// Whether `sample` is a fix good enough to count as a location at all.
    func isUsable(_ sample: PositionSample) -> Bool {
        sample.mode >= settings.minimumMode && sample.coordinate != nil
    }

    /// Judges `sample`, received at `now` (time since a fixed start); an accepted sample
    /// becomes the reference for the next ones.
    mutating func evaluate(_ sample: PositionSample, receivedAt now: Duration) -> Verdict {
        guard isUsable(sample), let coordinate = sample.coordinate else { return .noFix }
        if let limit = settings.maximumHorizontalError, let error = sample.horizontalAccuracy, error > limit {
            return .inaccurate
        }
        if let last {
            if last.sample.timestamp == sample.timestamp, last.coordinate == coordinate { return .duplicate }
            if now - last.receivedAt < settings.minimumInterval { return .tooSoon }
            if GreatCircle.distance(last.coordinate, coordinate) < settings.distanceFilter { return .tooClose }
        }
        last = (sample, coordinate, now)
        return .accepted
    }
}
