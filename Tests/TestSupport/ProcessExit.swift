import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Whether and how a child started with Foundation's `Process` has exited, as the kernel says,
/// not as Foundation's reaper has got round to saying.
///
/// Foundation's `isRunning` turns false only when its one manager thread has reaped the child,
/// which it does when a socket the child inherited reports end of file. Any other process that
/// inherited that socket as well (one spawned by another thread, without closing what it
/// inherits, in the moment before Foundation closed its own copy) holds it open, so the child
/// stays a zombie and `isRunning` stays true until that other process ends too; under load the
/// reaper is also just late. `waitid` with `WNOWAIT` reads a zombie's status at once and leaves
/// the child for Foundation to reap, so Foundation's own state stays whole.
extension Process {
    /// The exit status as a shell gives it (the exit code, or 128 + the signal that ended the
    /// child) once the child has exited; `nil` while it runs. Never reaps the child.
    public var statusIfExited: Int32? {
        if !isRunning { return Self.shellStatus(terminationReason == .exit, terminationStatus) }
        var info = siginfo_t()
        if waitid(P_PID, id_t(processIdentifier), &info, WEXITED | WNOHANG | WNOWAIT) == 0 {
            // With WNOHANG and nothing to report, waitid leaves the pid zero: still running.
            guard info._sifields._sigchld.si_pid == processIdentifier else { return nil }
            return Self.shellStatus(info.si_code == Int32(CLD_EXITED), info._sifields._sigchld.si_status)
        }
        // ECHILD: Foundation reaped it since `isRunning` was read, and says so in a moment.
        return isRunning ? nil : Self.shellStatus(terminationReason == .exit, terminationStatus)
    }

    /// Whether the child has exited (a zombie counts), even before Foundation has reaped it.
    public var hasExited: Bool { statusIfExited != nil }

    /// Waits until the child has exited, checking every `interval`, for at most `timeout`
    /// (scaled by `SWITCHYARD_TEST_TIMEOUT_SCALE`); its status (see ``statusIfExited``), or
    /// `nil` when it still runs (nothing is recorded or killed).
    public func exitStatus(within timeout: Duration, interval: Duration = .milliseconds(20)) async -> Int32? {
        var status: Int32?
        await eventually(timeout: timeout, interval: interval) {
            status = statusIfExited
            return status != nil
        }
        return status
    }

    /// Blocks the calling thread until the child has exited and returns its status: for a
    /// child just sent SIGKILL, or a short-lived tool.
    @discardableResult
    public func waitForExitStatus() -> Int32 {
        var info = siginfo_t()
        // Blocks without reaping; fails with ECHILD once Foundation has reaped the child.
        while waitid(P_PID, id_t(processIdentifier), &info, WEXITED | WNOWAIT) != 0, errno == EINTR {}
        while true {
            if let status = statusIfExited { return status }
            usleep(1_000)
        }
    }

    /// Sends `signal` unless the child has exited, then blocks until it has; returns its status.
    @discardableResult
    public func signalAndWait(_ signal: Int32 = SIGKILL) -> Int32 {
        if !hasExited { kill(processIdentifier, signal) }
        return waitForExitStatus()
    }

    /// Sends `signal` unless the child has exited and waits at most `timeout` (scaled) for it
    /// to exit; one that does not is sent SIGKILL and waited for. Returns its status and
    /// whether it had to be killed, for the caller to report.
    public func stop(with signal: Int32 = SIGTERM, timeout: Duration = .seconds(30)) async -> (status: Int32, killed: Bool) {
        if !hasExited { kill(processIdentifier, signal) }
        if let status = await exitStatus(within: timeout) { return (status, false) }
        return (signalAndWait(SIGKILL), true)
    }

    private static func shellStatus(_ exited: Bool, _ code: Int32) -> Int32 {
        exited ? code : 128 + code
    }
}
