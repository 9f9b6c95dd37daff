import SwitchyardBus

/// Turns gpsd lines into the plugin's emitted actions and log lines — pure, timed by receive
/// time.
///
/// Fixes and satellite reports from other devices are dropped when one device is configured;
/// `SKY` summaries are rate-limited; lines that are not reports are counted and logged at most
/// once per ``complaintInterval`` so a garbage feed cannot flood the log.
struct GPSDFeedTranslator: Sendable {
    /// What one line produced.
    enum Output: Sendable, Hashable {
        /// Emit `NAME/<event>` with this payload.
        case emit(event: String, payload: JSON)
        /// Log an informational line.
        case info(String)
        /// Log a warning.
        case warning(String)
    }

    /// The longest silence between two complaints about unusable lines.
    static let complaintInterval = Duration.seconds(60)

    private let device: String?
    private var satellites: RateLimiter
    private var complaints = RateLimiter(interval: complaintInterval)
    private(set) var unusableLines = 0
    /// The gpsd release from the last `VERSION`, for status payloads.
    private(set) var gpsdRelease: String?

    /// Creates a translator for one device path (or all, with `nil`) and a satellites interval.
    init(device: String?, satellitesInterval: Duration) {
        self.device = device
        satellites = RateLimiter(interval: satellitesInterval)
    }

    /// Translates one line that arrived at `now`.
    mutating func translate(_ line: GPSDLine, at now: Duration) -> [Output] {
        switch line {
        case .report(let report):
            return translate(report, at: now)
        case .ignored:
            return []
        case .notJSON:
            return complain("a line that is not JSON", at: now)
        case .malformed(let reason):
            return complain(reason, at: now)
        }
    }

    /// Counts a line longer than the limit, which the socket skipped.
    mutating func discardedLine(byteCount: Int, at now: Duration) -> [Output] {
        complain("a line of \(byteCount) bytes, over the line-length limit", at: now)
    }

    private mutating func translate(_ report: GPSDReport, at now: Duration) -> [Output] {
        switch report {
        case .fix(let fix):
            return wanted(fix.device) ? [.emit(event: "fix", payload: fix.payload)] : []
        case .sky(let sky):
            guard wanted(sky.device), satellites.admit(at: now) else { return [] }
            return [.emit(event: "satellites", payload: sky.summaryPayload)]
        case .device(let device):
            return wanted(device.path) ? [.emit(event: "device", payload: device.payload)] : []
        case .devices(let devices):
            return devices.filter { wanted($0.path) }.map { .emit(event: "device", payload: $0.payload) }
        case .version(let version):
            gpsdRelease = version.release
            let release = version.release ?? "unknown release"
            return [.info("gpsd \(release), protocol \(version.protocolVersion ?? "unknown")")]
        case .watch(let watch):
            return watch.isEnabled ? [] : [.warning("gpsd reports the watch disabled")]
        case .error(let message):
            return [.warning("gpsd: \(message)")]
        }
    }

    private func wanted(_ path: String?) -> Bool {
        guard let device else { return true }
        return path == nil || path == device
    }

    private mutating func complain(_ what: String, at now: Duration) -> [Output] {
        unusableLines += 1
        guard complaints.admit(at: now) else { return [] }
        return [.warning("skipped \(what); \(unusableLines) unusable line(s) so far")]
    }
}
