import Synchronization

/// The bounded queue in front of a store's reducer.
///
/// Senders append under one lock; a single drainer takes everything queued at once, so the
/// reducer pays for the lock once per batch. Senders that wait for room are parked in arrival
/// order and moved into the queue by the drainer as soon as it frees space, which keeps the
/// order FIFO without retry loops. Invariant: whenever the queue is non-empty, a drainer has
/// been claimed (`draining`), so a parked sender is always admitted eventually.
final class StoreInbox<Action: Sendable>: Sendable {
    struct Entry: Sendable {
        var action: Action
        /// Resumed once the action has been reduced (or refused, for a closing store).
        var reduced: UnsafeContinuation<Void, Never>?
    }

    private struct Waiter: Sendable {
        var id: UInt64
        var entry: Entry
        /// Resumed with `true` when the entry is admitted into the queue.
        var admitted: UnsafeContinuation<Bool, Never>?
    }

    private struct State: Sendable {
        var queue: [Entry] = []
        var waiters: [Waiter] = []
        var draining = false
        var closed = false
        var nextSequence: UInt64
        var nextWaiterID: UInt64 = 0
        var cancelledWaiters: Set<UInt64> = []
        var rejected: UInt64 = 0
    }

    enum SubmitResult {
        /// In the queue; start a drainer when `startDrainer` is set.
        case accepted(startDrainer: Bool)
        /// Waiting for room; the drainer admits it later.
        case parked
        /// Not taken: the inbox is full (for `send`), closed, or the sender was cancelled.
        case refused
    }

    let capacity: Int
    private let stamp: (@Sendable (inout Action, UInt64) -> Void)?
    private let state: Mutex<State>
    private let drainStarter = Mutex<(@Sendable () -> Void)?>(nil)

    init(capacity: Int, firstSequence: UInt64, stamp: (@Sendable (inout Action, UInt64) -> Void)?) {
        self.capacity = capacity
        self.stamp = stamp
        self.state = Mutex(State(nextSequence: firstSequence))
    }

    /// Sets what starts a drainer; the store installs it once, holding itself weakly.
    func setDrainStarter(_ starter: @escaping @Sendable () -> Void) {
        drainStarter.withLock { $0 = starter }
    }

    /// Starts a drainer; call it exactly when an append reported `startDrainer`, or to let a
    /// closed store finish its streams.
    func startDrainer() {
        drainStarter.withLock { $0 }?()
    }

    var isClosed: Bool { state.withLock { $0.closed } }

    var count: Int { state.withLock { $0.queue.count } }
    var rejected: UInt64 { state.withLock { $0.rejected } }

    /// The sequence number the next accepted action gets.
    var nextSequence: UInt64 { state.withLock { $0.nextSequence } }

    /// Appends without waiting.
    func append(_ action: Action) -> SubmitResult {
        state.withLock { state in
            guard !state.closed, state.queue.count < capacity, state.waiters.isEmpty else {
                state.rejected &+= 1
                return .refused
            }
            admit(Entry(action: action, reduced: nil), into: &state)
            return .accepted(startDrainer: claimDrainer(&state))
        }
    }

    func makeWaiterID() -> UInt64 {
        state.withLock { state in
            state.nextWaiterID &+= 1
            return state.nextWaiterID
        }
    }

    /// Appends, or parks the entry until the drainer frees room. A sender cancelled before it
    /// got room is refused.
    func submit(_ entry: Entry, waiterID: UInt64, admitted: UnsafeContinuation<Bool, Never>?) -> SubmitResult {
        state.withLock { state in
            guard !state.closed else { return .refused }
            if state.queue.count < capacity, state.waiters.isEmpty {
                admit(entry, into: &state)
                return .accepted(startDrainer: claimDrainer(&state))
            }
            guard !state.cancelledWaiters.contains(waiterID) else { return .refused }
            state.waiters.append(Waiter(id: waiterID, entry: entry, admitted: admitted))
            return .parked
        }
    }

    /// Releases a parked sender whose task was cancelled; remembers the id when it has not
    /// parked yet, so a later `submit` refuses it.
    func cancelWaiter(_ id: UInt64) {
        let waiter: Waiter? = state.withLock { state in
            if let index = state.waiters.firstIndex(where: { $0.id == id }) {
                return state.waiters.remove(at: index)
            }
            state.cancelledWaiters.insert(id)
            return nil
        }
        waiter?.admitted?.resume(returning: false)
        waiter?.entry.reduced?.resume()
    }

    /// Drops the bookkeeping of a finished wait.
    func forgetWaiter(_ id: UInt64) {
        state.withLock { _ = $0.cancelledWaiters.remove(id) }
    }

    /// Takes every queued action and admits parked senders into the freed room. `spare`, an
    /// array whose buffer the caller no longer needs, becomes the new queue so that steady
    /// traffic allocates nothing. `nil` when nothing is queued: the drainer must stop, and the
    /// next append claims a new one.
    func takeBatch(spare: inout [Entry]) -> [Entry]? {
        spare.removeAll(keepingCapacity: true)
        var admitted: [UnsafeContinuation<Bool, Never>] = []
        let found: Bool = state.withLock { state in
            guard !state.queue.isEmpty else {
                state.draining = false
                return false
            }
            swap(&state.queue, &spare)
            if !state.waiters.isEmpty {
                let room = min(capacity, state.waiters.count)
                for waiter in state.waiters.prefix(room) {
                    admit(waiter.entry, into: &state)
                    if let continuation = waiter.admitted { admitted.append(continuation) }
                }
                state.waiters.removeFirst(room)
            }
            return true
        }
        for continuation in admitted { continuation.resume(returning: true) }
        guard found else { return nil }
        defer { spare = [] }
        return spare
    }

    /// Refuses every later append and releases parked senders; queued actions still drain.
    /// Returns whether the caller must start a drainer (none is running) so that the store
    /// can end its streams.
    @discardableResult
    func close() -> Bool {
        let (waiters, startDrainer) = state.withLock { state -> ([Waiter], Bool) in
            state.closed = true
            defer { state.waiters.removeAll() }
            return (state.waiters, claimDrainer(&state))
        }
        for waiter in waiters {
            waiter.admitted?.resume(returning: false)
            waiter.entry.reduced?.resume()
        }
        return startDrainer
    }

    private func admit(_ entry: Entry, into state: inout State) {
        var entry = entry
        stamp?(&entry.action, state.nextSequence)
        state.nextSequence &+= 1
        state.queue.append(entry)
    }

    private func claimDrainer(_ state: inout State) -> Bool {
        guard !state.draining else { return false }
        state.draining = true
        return true
    }
}
