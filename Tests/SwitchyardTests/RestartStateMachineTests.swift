@testable import Switchyard
@testable import SwitchyardBus
import Testing

struct RestartStateMachineTests {
    private let policy = RestartPolicy(mode: .onFailure, maxRestarts: 3, window: .seconds(60),
                                       initialBackoff: .milliseconds(100), maxBackoff: .milliseconds(350))

    /// Consecutive failures double the backoff up to its cap.
    @Test func backoffDoublesUpToCap() {
        var machine = RestartStateMachine(policy: RestartPolicy(mode: .always, maxRestarts: 100, window: .seconds(60),
                                                               initialBackoff: .milliseconds(100), maxBackoff: .milliseconds(350)))
        let delays = (0..<4).map { step -> RestartStateMachine.Decision in
            machine.runEnded(failed: true, startedAt: .seconds(step), endedAt: .seconds(step) + .milliseconds(1))
        }
        #expect(delays == [.restart(after: .milliseconds(100)), .restart(after: .milliseconds(200)),
                           .restart(after: .milliseconds(350)), .restart(after: .milliseconds(350))])
    }

    /// More restarts than the limit within one window gives up.
    @Test func restartLimitWithinWindow() {
        var machine = RestartStateMachine(policy: policy)
        for step in 0..<3 {
            guard case .restart = machine.runEnded(failed: true, startedAt: .seconds(step), endedAt: .seconds(step)) else {
                Issue.record("expected a restart at step \(step)")
                return
            }
        }
        #expect(machine.runEnded(failed: true, startedAt: .seconds(3), endedAt: .seconds(3)) == .stop(.restartLimitReached))
    }

    /// Restarts older than the window no longer count, and a run lasting a window resets the backoff.
    @Test func windowSlidesAndLongRunResetsBackoff() {
        var machine = RestartStateMachine(policy: policy)
        _ = machine.runEnded(failed: true, startedAt: .zero, endedAt: .seconds(1))
        _ = machine.runEnded(failed: true, startedAt: .seconds(1), endedAt: .seconds(2))
        _ = machine.runEnded(failed: true, startedAt: .seconds(2), endedAt: .seconds(3))
        let later = machine.runEnded(failed: true, startedAt: .seconds(3), endedAt: .seconds(100))
        #expect(later == .restart(after: .milliseconds(100)))
    }

    /// Each mode treats a failure and a normal return as documented.
    @Test(arguments: [
        (RestartPolicy.Mode.never, true, RestartStateMachine.Decision.stop(.failedWithoutRestart)),
        (.never, false, .stop(.finished)),
        (.onFailure, false, .stop(.finished)),
        (.onFailure, true, .restart(after: .milliseconds(100))),
        (.always, false, .restart(after: .milliseconds(100))),
    ])
    func modes(mode: RestartPolicy.Mode, failed: Bool, expected: RestartStateMachine.Decision) {
        var machine = RestartStateMachine(policy: RestartPolicy(mode: mode, maxRestarts: 3, window: .seconds(60),
                                                               initialBackoff: .milliseconds(100), maxBackoff: .seconds(1)))
        #expect(machine.runEnded(failed: failed, startedAt: .zero, endedAt: .seconds(1)) == expected)
    }
}
