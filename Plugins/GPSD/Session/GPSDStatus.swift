/// The state of the feed from gpsd, as `NAME/status` reports it.
enum GPSDStatus: String, Sendable, Hashable {
    /// Connecting, or connected and waiting for gpsd to list its devices.
    case connecting
    /// Connected, watching, with a device.
    case connected
    /// Connected, but gpsd has no device (or not the one configured).
    case noDevice = "no-device"
    /// Connected with a device, but nothing arrived for longer than the stale timeout.
    case stale
    /// Not connected; a reconnect is scheduled.
    case disconnected
}

/// A status change with its details, the payload of `NAME/status`.
struct GPSDStatusReport: Sendable, Hashable {
    /// The new status.
    var status: GPSDStatus
    /// Why, for `disconnected`, `no-device` and `stale`.
    var reason: String?
    /// When the next connection attempt starts, for `disconnected`.
    var retryIn: Duration?
}
