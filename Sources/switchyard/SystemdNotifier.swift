import FoundationEssentials
import Glibc
import SwitchyardIO
import Synchronization

/// systemd's service notification protocol (`sd_notify(3)`) for a `Type=notify` unit: one
/// datagram per state change to the socket named by `$NOTIFY_SOCKET`.
///
/// The bus sends `READY=1` once every plugin has started; on SIGHUP `RELOADING=1` with
/// `MONOTONIC_USEC=` (so systemd waits for the reload) and `READY=1` when the reload is done
/// or refused; `STOPPING=1` on a stop signal; and, when the unit sets `WatchdogSec=`,
/// `WATCHDOG=1` at half the interval for as long as the bus is healthy. Without
/// `$NOTIFY_SOCKET` every call does nothing. A message that cannot be sent is logged once as a
/// warning: it never stops the bus.
final class SystemdNotifier: Sendable {
    private let socketPath: String?
    private let warned = Mutex(false)
    /// How often to ping the watchdog: half of `$WATCHDOG_USEC`; `nil` without a watchdog.
    let watchdogInterval: Duration?

    /// A notifier for this process's environment.
    init(environment: [String: String], pid: Int32 = getpid()) {
        let path = environment["NOTIFY_SOCKET"] ?? ""
        socketPath = path.isEmpty ? nil : path
        watchdogInterval = socketPath == nil ? nil : Self.watchdogInterval(environment: environment, pid: pid)
    }

    /// The ping interval systemd asks for: half of `WATCHDOG_USEC`, when that is a positive
    /// number of microseconds and `WATCHDOG_PID` (if set) is `pid`; otherwise `nil`.
    static func watchdogInterval(environment: [String: String], pid: Int32) -> Duration? {
        guard let text = environment["WATCHDOG_USEC"], let microseconds = UInt64(text), microseconds > 0 else { return nil }
        if let owner = environment["WATCHDOG_PID"], !owner.isEmpty, Int32(owner) != pid { return nil }
        return .microseconds(Int64(clamping: microseconds / 2))
    }

    /// The reload announcement: `RELOADING=1` and the monotonic clock in microseconds, which
    /// systemd uses to tell this reload from an earlier one.
    static func reloadingMessage(monotonicMicroseconds: UInt64) -> String {
        "RELOADING=1\nMONOTONIC_USEC=\(monotonicMicroseconds)"
    }

    func ready() { send("READY=1") }

    func reloading() {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        send(Self.reloadingMessage(monotonicMicroseconds: UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000))
    }

    func stopping() { send("STOPPING=1") }

    /// Pings the watchdog every ``watchdogInterval`` while `isHealthy` says so; returns when
    /// cancelled, at once without a watchdog. A bus that stops answering or stops serving
    /// misses its pings, and systemd restarts it.
    func pingWatchdog(while isHealthy: @escaping @Sendable () async -> Bool) async {
        guard let interval = watchdogInterval else { return }
        while !Task.isCancelled {
            if await isHealthy() { send("WATCHDOG=1") }
            do { try await Task.sleep(for: interval) } catch { return }
        }
    }

    /// Sends `message`; logs the first failure.
    func send(_ message: String) {
        guard let socketPath, let problem = Self.send(message, to: socketPath) else { return }
        let first = warned.withLock { warned in
            defer { warned = true }
            return !warned
        }
        if first { Output.error("switchyard: warning: \(problem)") }
    }

    /// Sends one datagram to the socket at `path`; a problem description when it fails.
    static func send(_ message: String, to path: String) -> String? {
        guard let made = try? UnixAddress.make(path, abstract: true) else {
            return path.isEmpty ? "NOTIFY_SOCKET is empty" : "NOTIFY_SOCKET path is too long"
        }
        var address = made.address
        let length = made.length
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return "cannot create a notify socket: \(String(cString: strerror(errno)))" }
        defer { close(descriptor) }
        let bytes = Array(message.utf8)
        let sent = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                sendto(descriptor, bytes, bytes.count, 0, socketAddress, length)
            }
        }
        return sent < 0 ? "cannot notify systemd: \(String(cString: strerror(errno)))" : nil
    }
}
