import SwitchyardBus

/// The location emitter's decisions, without I/O: availability from the source's state and
/// fixes, and significant changes through the ``LocationFilter``.
///
/// Availability follows the fix mode only: a source that delivers fixes of at least the
/// minimum mode is `available` even while the other filters hold every change back.
struct LocationEngine: Sendable {
    /// What one event produced, in the order to emit it.
    enum Output: Sendable, Hashable {
        /// Emit `NAME/availability`: the availability changed.
        case availability(Availability, reason: String)
        /// Emit `NAME/changed` with this location payload.
        case changed(JSON)
    }

    /// The name written as `source` in location payloads: the plugin name, `static` or `replay`.
    let sourceName: String
    private var filter: LocationFilter
    /// The availability last reported.
    private(set) var availability: Availability

    /// Creates an engine whose availability starts at `availability` (the slice's value, so a
    /// restarted plugin does not repeat it).
    init(filter settings: LocationFilter.Settings, sourceName: String, availability: Availability) {
        filter = LocationFilter(settings: settings)
        self.sourceName = sourceName
        self.availability = availability
    }

    /// A gpsd plugin reported its `status`: `connected` means searching until a fix; `stale`
    /// means searching; `connecting`, `disconnected` and `no-device` mean unavailable.
    mutating func sourceStatus(_ status: String) -> [Output] {
        switch status {
        case "connected":
            return availability == .unavailable ? change(to: .searching, "\(sourceName) is connected") : []
        case "stale":
            return change(to: availability == .unavailable ? .unavailable : .searching, "\(sourceName) went silent")
        case "connecting", "disconnected", "no-device":
            return change(to: .unavailable, "\(sourceName) is \(status)")
        default:
            return []
        }
    }

    /// The source started delivering (a replay began): searching until the first usable fix.
    mutating func sourceStarted(_ reason: String) -> [Output] {
        availability == .available ? [] : change(to: .searching, reason)
    }

    /// The source will deliver nothing more (a replay ended without looping).
    mutating func sourceEnded(_ reason: String) -> [Output] {
        change(to: .unavailable, reason)
    }

    /// A sample arrived at `now` (time since a fixed start, by the plugin's clock).
    mutating func receive(_ sample: PositionSample, at now: Duration) -> [Output] {
        var outputs: [Output]
        if filter.isUsable(sample) {
            outputs = change(to: .available, "fix of mode \(sample.mode)")
        } else {
            let what = sample.coordinate == nil ? "no position" : "mode \(sample.mode)"
            outputs = change(to: .searching, "no usable fix (\(what); minimum mode \(filter.settings.minimumMode))")
        }
        if filter.evaluate(sample, receivedAt: now) == .accepted {
            outputs.append(.changed(payload(sample)))
        }
        return outputs
    }

    /// The `NAME/changed` payload: `latitude`, `longitude`, `mode`, `timestamp` (`null` when the
    /// source gave none), `source`, and `altitude`, `horizontalAccuracy`, `speed`, `course`
    /// when known.
    private func payload(_ sample: PositionSample) -> JSON {
        var members: [String: JSON] = [
            "mode": .integer(Int64(sample.mode)),
            "timestamp": sample.timestamp.map(JSON.string) ?? .null,
            "source": .string(sourceName),
        ]
        if let coordinate = sample.coordinate {
            members["latitude"] = .number(coordinate.latitude)
            members["longitude"] = .number(coordinate.longitude)
        }
        members["altitude"] = sample.altitude.map(JSON.number)
        members["horizontalAccuracy"] = sample.horizontalAccuracy.map(JSON.number)
        members["speed"] = sample.speed.map(JSON.number)
        members["course"] = sample.course.map(JSON.number)
        return .object(members)
    }

    private mutating func change(to new: Availability, _ reason: String) -> [Output] {
        guard new != availability else { return [] }
        availability = new
        return [.availability(new, reason: reason)]
    }
}
