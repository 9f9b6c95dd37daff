import Glibc

/// How far a stop had to go before the child exited.
enum StopOutcome: Sendable, Hashable, CustomStringConvertible {
    /// The child exited after its stdin closed, as the protocol asks.
    case exitedAfterInputClosed(ChildExitStatus)
    /// The child exited after SIGTERM.
    case terminated(ChildExitStatus)
    /// The child ignored SIGTERM and was killed.
    case killed(ChildExitStatus)

    /// The child's exit status, whichever way it ended.
    var status: ChildExitStatus {
        switch self {
        case .exitedAfterInputClosed(let status), .terminated(let status), .killed(let status):
            return status
        }
    }

    /// `exited with exit code 0 after stdin closed`, and so on.
    var description: String {
        switch self {
        case .exitedAfterInputClosed(let status): return "exited with \(status) after stdin closed"
        case .terminated(let status): return "exited with \(status) after SIGTERM"
        case .killed(let status): return "killed (\(status)) after ignoring SIGTERM"
        }
    }
}

extension ChildConnection {
    /// Stops the child: closes its stdin and waits up to `timeout` on `clock` for it to exit,
    /// then sends SIGTERM to its process group and waits up to `timeout` again, then sends
    /// SIGKILL and waits for the exit. Output arriving meanwhile goes to `onEvent`.
    ///
    /// Returns after the child has been reaped and every pipe to it closed. It runs to the end
    /// even when the calling task is cancelled, because stopping is what a cancelled plugin
    /// does and a child must never be left behind; its length is bounded by twice `timeout`.
    func stop(
        timeout: Duration,
        clock: any Clock<Duration>,
        onEvent: @escaping @Sendable (ChildEvent) async -> Void
    ) async -> StopOutcome {
        await Task {
            closeInput()
            if let status = await awaitExit(within: timeout, clock: clock, onEvent: onEvent) {
                return .exitedAfterInputClosed(status)
            }
            signal(SIGTERM)
            if let status = await awaitExit(within: timeout, clock: clock, onEvent: onEvent) {
                return .terminated(status)
            }
            signal(SIGKILL)
            return .killed(await awaitExit(within: nil, clock: clock, onEvent: onEvent) ?? .signalled(signal: SIGKILL))
        }.value
    }

    /// Passes events to `onEvent` until the exit event, or until `timeout` (`nil`: none)
    /// passes; returns the exit status, or `nil` on timeout.
    func awaitExit(
        within timeout: Duration?,
        clock: any Clock<Duration>,
        onEvent: @escaping @Sendable (ChildEvent) async -> Void
    ) async -> ChildExitStatus? {
        await withTaskGroup(of: ChildExitStatus?.self) { group in
            group.addTask {
                while let event = await self.next() {
                    if case .exited(let status) = event { return status }
                    await onEvent(event)
                }
                // Without cancellation, `nil` means the exit event was taken earlier.
                return Task.isCancelled ? nil : self.exitStatus
            }
            if let timeout {
                group.addTask {
                    try? await clock.sleep(for: timeout)
                    return nil
                }
            }
            var exit = await group.next() ?? nil
            group.cancelAll()
            for await late in group where exit == nil {
                exit = late
            }
            return exit
        }
    }
}
