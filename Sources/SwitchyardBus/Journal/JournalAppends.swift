import Synchronization

/// Tells readers of a running bus's journal when it grew: the journal's writer thread moves
/// ``last`` after each group it wrote (before any of its actions is acknowledged or handed to
/// plugins), and a reader that caught up asks to be told once something follows what it read
/// (``notify(after:_:)``), instead of polling the files.
///
/// A one-shot callback rather than an async sequence: the writer thread never suspends, and
/// costs a lock and an empty check per group when nobody waits.
public final class JournalAppends: Sendable {
    private struct State: Sendable {
        var last: UInt64
        var nextToken = 0
        var waiting: [(token: Int, after: UInt64, wake: @Sendable () -> Void)] = []
    }

    private let state: Mutex<State>

    /// Appends starting after `sequence` (the journal's last sequence when the bus started).
    public init(after sequence: UInt64) {
        state = Mutex(State(last: sequence))
    }

    /// The last sequence number written.
    public var last: UInt64 { state.withLock { $0.last } }

    /// Calls `wake` once, as soon as an action after `sequence` is written: at once when one
    /// already is. Returns a token for ``cancel(_:)``, so a reader woken otherwise leaves
    /// nothing behind.
    @discardableResult
    public func notify(after sequence: UInt64, _ wake: @escaping @Sendable () -> Void) -> Int {
        let (token, now) = state.withLock { state -> (Int, Bool) in
            state.nextToken += 1
            guard state.last <= sequence else { return (state.nextToken, true) }
            state.waiting.append((state.nextToken, sequence, wake))
            return (state.nextToken, false)
        }
        if now { wake() }
        return token
    }

    /// Forgets the callback of `token` if it was not called yet.
    public func cancel(_ token: Int) {
        state.withLock { state in state.waiting.removeAll { $0.token == token } }
    }

    /// Callbacks waiting (for tests).
    var waitingCount: Int { state.withLock { $0.waiting.count } }

    /// The actions through `sequence` are written: wakes whoever waits for them.
    func wrote(through sequence: UInt64) {
        let woken = state.withLock { state -> [@Sendable () -> Void] in
            state.last = max(state.last, sequence)
            guard !state.waiting.isEmpty else { return [] }
            var woken: [@Sendable () -> Void] = []
            state.waiting.removeAll { waiting in
                guard waiting.after < state.last else { return false }
                woken.append(waiting.wake)
                return true
            }
            return woken
        }
        for wake in woken { wake() }
    }
}
