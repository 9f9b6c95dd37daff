import SwitchyardIO

/// Decides, after a plugin's `run` ended, whether and when to start it again.
///
/// Pure: times are durations since the bus started, so it is tested without clocks or tasks.
/// Backoff doubles from `initialBackoff` up to `maxBackoff` with each consecutive failure and
/// resets once a run has lasted a whole `window`; more than `maxRestarts` restarts within one
/// `window` gives up.
struct RestartStateMachine: Sendable {
    enum Decision: Sendable, Hashable {
        case restart(after: Duration)
        case stop(StopReason)
    }

    enum StopReason: Sendable, Hashable {
        /// `run` returned and the policy restarts only failures (or never).
        case finished
        /// `run` failed and the policy is `never`.
        case failedWithoutRestart
        /// Too many restarts within the window.
        case restartLimitReached
    }

    let policy: RestartPolicy
    private var restartTimes: [Duration] = []
    private var consecutiveFailures = 0

    init(policy: RestartPolicy) {
        self.policy = policy
    }

    /// The number of restarts decided so far.
    private(set) var restarts = 0

    /// A run that started at `startedAt` ended at `endedAt`, by failing or by returning.
    mutating func runEnded(failed: Bool, startedAt: Duration, endedAt: Duration) -> Decision {
        switch (policy.mode, failed) {
        case (.never, true): return .stop(.failedWithoutRestart)
        case (.never, false), (.onFailure, false): return .stop(.finished)
        case (.always, _), (.onFailure, true): break
        }
        if endedAt - startedAt >= policy.window { consecutiveFailures = 0 }
        restartTimes.removeAll { endedAt - $0 >= policy.window }
        guard restartTimes.count < policy.maxRestarts else { return .stop(.restartLimitReached) }
        restartTimes.append(endedAt)
        restarts += 1
        let delay = backoff(afterConsecutive: consecutiveFailures)
        consecutiveFailures += 1
        return .restart(after: delay)
    }

    private func backoff(afterConsecutive count: Int) -> Duration {
        ExponentialBackoff(initial: policy.initialBackoff, maximum: policy.maxBackoff).delay(beforeAttempt: count + 1)
    }
}
