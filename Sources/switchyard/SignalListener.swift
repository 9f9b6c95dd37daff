import FoundationEssentials
import Glibc
import Synchronization
import SwitchyardIO

/// Takes the process's stop and reload signals on a thread of its own with `sigwait`.
///
/// The signals must be blocked in every thread (done first thing in `main`). Signals that
/// arrive before a handler is installed are kept, in order, and handed to the handler when it
/// is installed, so a SIGTERM sent during start-up still stops the bus. Dispatch signal
/// sources are not used: on Linux they lose a signal that is pending before the source exists.
final class SignalListener: Sendable {
    /// A struct, not a tuple: a closure inside a `Mutex`'s tuple value is re-wrapped in two
    /// thunks on every `withLock`, which grew memory by 64 bytes and the call depth by two on
    /// every signal.
    private struct State: Sendable {
        var handler: (@Sendable (Int32) -> Void)?
        var pending: [Int32] = []
    }

    private let state = Mutex(State())

    /// Starts the listening thread for `signals`, which must already be blocked.
    init(signals: [Int32]) {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal) }
        startDetachedThread { [self, set] in
            nameCurrentThread("signals")
            var set = set
            while true {
                var received: Int32 = 0
                guard sigwait(&set, &received) == 0 else { continue }
                deliver(received)
            }
        }
    }

    /// Installs the handler (replacing an earlier one) and hands it the signals kept so far.
    /// The handler runs on the listener's thread.
    func setHandler(_ handler: @escaping @Sendable (Int32) -> Void) {
        let pending = state.withLock { state in
            state.handler = handler
            defer { state.pending.removeAll() }
            return state.pending
        }
        for signal in pending { handler(signal) }
    }

    /// Removes the handler; later signals are kept again.
    func removeHandler() {
        state.withLock { $0.handler = nil }
    }

    private func deliver(_ signal: Int32) {
        let handler = state.withLock { state -> (@Sendable (Int32) -> Void)? in
            if state.handler == nil { state.pending.append(signal) }
            return state.handler
        }
        handler?(signal)
    }
}

/// The exit status the command's task hands back to the synchronous `main`.
final class ExitOutcome: Sendable {
    private let value = Mutex(ExitStatus.failure)

    var status: ExitStatus {
        get { value.withLock { $0 } }
        set { value.withLock { $0 = newValue } }
    }
}
