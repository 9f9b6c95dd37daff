/// Everything a gpsd session needs, with gpsd's and the plugin's defaults.
struct GPSDConfiguration: Sendable, Hashable {
    /// Where gpsd listens. Default: `127.0.0.1:2947`.
    var endpoint = GPSDEndpoint.standard
    /// The one device to watch; `nil` (the default) watches every device.
    var device: String?
    /// The shortest time between two `NAME/satellites` actions. Default: 5 seconds.
    var satellitesInterval = Duration.seconds(5)
    /// Silence after which the feed is reported `stale`. Default: 10 seconds.
    var staleAfter = Duration.seconds(10)
    /// The delay before the first reconnect; it doubles per failed attempt. Default: 0.5 seconds.
    var reconnectDelay = Duration.milliseconds(500)
    /// The cap on the reconnect delay. Default: 30 seconds.
    var maximumReconnectDelay = Duration.seconds(30)
    /// How long connecting may take. Default: 5 seconds.
    var connectTimeout = Duration.seconds(5)
    /// The longest line accepted from gpsd, in bytes; longer lines are skipped and counted.
    /// Default: 64 KiB (gpsd's largest reports, SKY with every satellite in view, are a few KiB).
    var maximumLineLength = 64 * 1024
    /// Lines held for a slow bus before reading from gpsd pauses (it resumes at half): the
    /// socket's kernel buffer and then gpsd hold the rest, so nothing is dropped here.
    /// Default: 256, so the feed holds about `bufferedLines × maximumLineLength` bytes at most
    /// (plus the lines of the one read that reached the mark).
    var bufferedLines = 256

    /// The watchdog's check period: a fifth of `staleAfter`, so staleness is reported at most
    /// 20% late, and at least 10 ms.
    var watchdogPeriod: Duration { max(staleAfter / 5, .milliseconds(10)) }

    var machineConfiguration: GPSDConnectionStateMachine.Configuration {
        .init(
            backoff: ReconnectBackoff(initial: reconnectDelay, maximum: maximumReconnectDelay),
            staleAfter: staleAfter, device: device)
    }

    var socketOptions: LineSocket.Options {
        .init(connectTimeout: connectTimeout, maximumLineLength: maximumLineLength)
    }
}
