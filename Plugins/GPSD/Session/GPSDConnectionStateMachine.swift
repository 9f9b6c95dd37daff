/// The connection to gpsd as a pure state machine: connecting, watching, device tracking,
/// the stale watchdog and reconnect backoff, driven by events stamped with a time since start.
///
/// It performs no I/O and reads no clock; the session feeds it events and carries out the
/// ``Action``s it returns. Status reports are returned only when the status changes.
struct GPSDConnectionStateMachine: Sendable {
    /// Policy for the machine.
    struct Configuration: Sendable, Hashable {
        /// Delays between connection attempts.
        var backoff: ReconnectBackoff
        /// Silence after which a connected feed is reported stale.
        var staleAfter: Duration
        /// The one device path watched, or `nil` for all.
        var device: String?
    }

    /// What the session must do.
    enum Action: Sendable, Hashable {
        /// Open a connection, then report ``connectionEstablished(at:)`` or
        /// ``connectionLost(_:at:)``.
        case connect
        /// Send `?WATCH` on the open connection.
        case sendWatch
        /// Emit `NAME/status`.
        case report(GPSDStatusReport)
        /// The connection is gone: wait this long, then call ``reconnectDue(at:)``.
        case reconnect(after: Duration)
    }

    private struct Feed: Sendable, Hashable {
        var lastActivity: Duration
        var devices: Set<String>?
        var watchAcknowledged = false
        var watchRefused = false
        var isStale = false
    }

    private enum State: Sendable, Hashable {
        case idle
        case connecting
        case open(Feed)
        case waiting
    }

    /// The machine's policy.
    let configuration: Configuration
    private var state = State.idle
    private var failedAttempts = 0
    /// The status last reported; `nil` before ``start(at:)``.
    private(set) var status: GPSDStatus?

    /// Creates an idle machine.
    init(configuration: Configuration) {
        self.configuration = configuration
    }

    /// Begins the first connection attempt.
    mutating func start(at now: Duration) -> [Action] {
        guard case .idle = state else { return [] }
        state = .connecting
        return announce(GPSDStatusReport(status: .connecting)) + [.connect]
    }

    /// The connection is open: watch. The status stays `connecting` until gpsd lists devices.
    mutating func connectionEstablished(at now: Duration) -> [Action] {
        guard case .connecting = state else { return [] }
        state = .open(Feed(lastActivity: now))
        return [.sendWatch]
    }

    /// Connecting failed or an open connection ended; schedules the next attempt with backoff.
    /// The backoff restarts after any connection on which gpsd sent something.
    mutating func connectionLost(_ reason: String, at now: Duration) -> [Action] {
        switch state {
        case .connecting, .open: break
        case .idle, .waiting: return []
        }
        state = .waiting
        failedAttempts += 1
        let delay = configuration.backoff.delay(beforeAttempt: failedAttempts)
        return announce(GPSDStatusReport(status: .disconnected, reason: reason, retryIn: delay)) + [.reconnect(after: delay)]
    }

    /// The backoff delay is over: connect again.
    mutating func reconnectDue(at now: Duration) -> [Action] {
        guard case .waiting = state else { return [] }
        state = .connecting
        return announce(GPSDStatusReport(status: .connecting)) + [.connect]
    }

    /// A line arrived on the open connection: it resets the watchdog, and reports update the
    /// device list and the status.
    mutating func received(_ line: GPSDLine, at now: Duration) -> [Action] {
        guard case .open(var feed) = state else { return [] }
        feed.lastActivity = now
        feed.isStale = false
        failedAttempts = 0
        var actions: [Action] = []
        if case .report(let report) = line { apply(report, to: &feed, actions: &actions) }
        state = .open(feed)
        return actions + announce(statusReport(of: feed))
    }

    /// Time passed: reports `stale` once a connected feed has been silent for `staleAfter`.
    mutating func tick(at now: Duration) -> [Action] {
        guard case .open(var feed) = state, !feed.isStale, status == .connected || status == .connecting,
            now - feed.lastActivity >= configuration.staleAfter
        else { return [] }
        feed.isStale = true
        state = .open(feed)
        return announce(statusReport(of: feed))
    }

    private func matches(_ path: String?) -> Bool {
        guard let wanted = configuration.device else { return true }
        return path == wanted
    }

    private func apply(_ report: GPSDReport, to feed: inout Feed, actions: inout [Action]) {
        switch report {
        case .devices(let devices):
            feed.devices = Set(devices.filter { matches($0.path) && $0.isActive != false }.map(\.path))
        case .device(let device):
            guard matches(device.path) else { return }
            var devices = feed.devices ?? []
            if device.isActive == false {
                devices.remove(device.path)
            } else {
                devices.insert(device.path)
                if feed.watchRefused {
                    // gpsd refused a watch on this path before it existed; ask again now.
                    feed.watchRefused = false
                    actions.append(.sendWatch)
                }
            }
            feed.devices = devices
        case .watch:
            feed.watchAcknowledged = true
            feed.watchRefused = false
        case .error:
            if !feed.watchAcknowledged, configuration.device != nil {
                feed.watchRefused = true
                feed.devices = []
            }
        case .fix(let fix):
            noteDataFrom(fix.device, in: &feed)
        case .sky(let sky):
            noteDataFrom(sky.device, in: &feed)
        case .version:
            break
        }
    }

    /// Data from a device proves it exists, whatever the device list said.
    private func noteDataFrom(_ path: String?, in feed: inout Feed) {
        guard let path, matches(path), feed.devices?.contains(path) != true else { return }
        feed.devices = (feed.devices ?? []).union([path])
    }

    private func statusReport(of feed: Feed) -> GPSDStatusReport {
        if feed.isStale {
            return GPSDStatusReport(status: .stale, reason: "nothing from gpsd for \(configuration.staleAfter)")
        }
        if let devices = feed.devices {
            guard devices.isEmpty else { return GPSDStatusReport(status: .connected) }
            let reason = configuration.device.map { "gpsd does not have \($0)" } ?? "gpsd has no device"
            return GPSDStatusReport(status: .noDevice, reason: reason)
        }
        return GPSDStatusReport(status: feed.watchAcknowledged ? .connected : .connecting)
    }

    private mutating func announce(_ report: GPSDStatusReport) -> [Action] {
        guard report.status != status else { return [] }
        status = report.status
        return [.report(report)]
    }
}
