import Synchronization

/// The bounded queue in front of a store's reducer.
///
/// Senders append under one lock; the store's one drainer task takes everything queued at
/// once, so the reducer pays for the lock once per batch. When the queue is empty the drainer
/// parks, and the next append wakes it; while it wakes, more actions queue up, so a busy store
/// reduces in large batches. Senders that wait for room are parked in arrival order and moved
/// into the queue by the drainer as soon as it frees space, which keeps the order FIFO without
/// retry loops.
@usableFromInline
package final class StoreInbox<Action: Sendable>: Sendable {
    // Hot paths are inlinable so that a client's `Store<MyState, MyAction>` runs specialized
    // code instead of looking up generic metadata for every action.
    @usableFromInline
    package struct Entry: Sendable {
        @usableFromInline package var action: Action
        /// Told what became of the action: published, delivered, refused or failed.
        @usableFromInline package var completion: StoreCompletion?
        /// The effect that emitted the action: if it is cancelled before the action is reduced,
        /// the action is discarded (a cancelled effect's late output never lands).
        @usableFromInline package var token: EffectToken?
        /// The sequence number the action got when it was accepted.
        @usableFromInline package var sequence: UInt64 = 0

        @inlinable
        package init(action: Action, completion: StoreCompletion?, token: EffectToken? = nil) {
            self.action = action
            self.completion = completion
            self.token = token
        }
    }

    @usableFromInline
    package struct Waiter: Sendable {
        @usableFromInline package var id: UInt64
        @usableFromInline package var entry: Entry
        /// Resumed with `true` when the entry is admitted into the queue.
        @usableFromInline package var admitted: UnsafeContinuation<Bool, Never>?
    }

    @usableFromInline
    package struct State: Sendable {
        @usableFromInline package var queue: [Entry] = []
        @usableFromInline package var waiters: [Waiter] = []
        /// Effects' emissions waiting for room: admitted before `waiters`, and even while
        /// paused, so effects can always finish and release the pause.
        @usableFromInline package var priorityWaiters: [Waiter] = []
        /// How many middleware have more effects waiting than they may buffer; while any do,
        /// senders from outside wait (or are refused) until effects catch up.
        @usableFromInline package var pauses = 0
        @usableFromInline package var paused: Bool { pauses > 0 }
        @usableFromInline package var parkedDrainer: UnsafeContinuation<Bool, Never>?
        @usableFromInline package var closed = false
        @usableFromInline package var nextSequence: UInt64
        @usableFromInline package var nextWaiterID: UInt64 = 0
        @usableFromInline package var cancelledWaiters: Set<UInt64> = []
        @usableFromInline package var rejected: UInt64 = 0

        @usableFromInline
        package init(nextSequence: UInt64) {
            self.nextSequence = nextSequence
        }
    }

    @usableFromInline
    package enum SubmitResult {
        /// In the queue; resume `wake` (the parked drainer) after unlocking, when set.
        case accepted(wake: UnsafeContinuation<Bool, Never>?)
        /// Waiting for room; the drainer admits it later.
        case parked
        /// Not taken: the inbox is full (for `send`), closed, or the sender was cancelled.
        case refused
    }

    @usableFromInline package let capacity: Int
    @usableFromInline package let state: Mutex<State>

    @usableFromInline
    package init(capacity: Int, firstSequence: UInt64) {
        self.capacity = capacity
        self.state = Mutex(State(nextSequence: firstSequence))
    }


    package var count: Int { state.withLock { $0.queue.count } }
    package var rejected: UInt64 { state.withLock { $0.rejected } }

    /// The sequence number the next accepted action gets.
    package var nextSequence: UInt64 { state.withLock { $0.nextSequence } }

    /// Whether the drainer is parked in ``waitForWork()`` with nothing queued.
    package var drainerWaits: Bool { state.withLock { $0.queue.isEmpty && $0.parkedDrainer != nil } }

    /// Appends without waiting.
    @inlinable
    package func append(_ action: Action) -> SubmitResult {
        state.withLock { state in
            guard !state.closed, !state.paused, state.queue.count < capacity, state.waiters.isEmpty,
                  state.priorityWaiters.isEmpty else {
                state.rejected &+= 1
                return .refused
            }
            admit(Entry(action: action, completion: nil), into: &state)
            return .accepted(wake: takeParkedDrainer(&state))
        }
    }

    /// Appends a run of `actions` in order under one lock: as many as there is room for go into
    /// the queue, from the first; the others are the caller's to send again. Nothing is taken
    /// while senders wait for room or admission is paused, as ``append(_:)`` refuses then too,
    /// so a run never overtakes them, and those not taken are never counted as rejected.
    /// Returns how many went into the queue and the parked drainer to resume after unlocking;
    /// `nil` when the inbox is closed and took none.
    package func append(contentsOf actions: some Collection<Action>) -> (taken: Int, wake: UnsafeContinuation<Bool, Never>?)? {
        state.withLock { state in
            guard !state.closed else { return nil }
            let taken = room(for: actions.count, in: &state)
            for action in actions.prefix(taken) { admit(Entry(action: action, completion: nil), into: &state) }
            return (taken, taken > 0 ? takeParkedDrainer(&state) : nil)
        }
    }

    /// Appends entries of many senders, each with its completion, in order under one lock (the
    /// control socket's dispatches of every connection in one loop turn). As many as there is
    /// room for go into the queue, from the first; the rest wait in order behind them (as
    /// parked senders that need no resuming), and all of them wait while others do or
    /// admission is paused, as ``append(contentsOf:)`` does. `entries` is left empty, its
    /// buffer kept for the sender's next turn. Returns how many went into the queue and the
    /// parked drainer to resume after unlocking; `nil` when the inbox is closed and took none
    /// (`entries` is then left as it was).
    package func append(moving entries: inout [Entry]) -> (taken: Int, wake: UnsafeContinuation<Bool, Never>?)? {
        state.withLock { state in
            guard !state.closed else { return nil }
            let taken = room(for: entries.count, in: &state)
            if taken == entries.count, state.queue.isEmpty {
                // The usual turn: everything fits a queue the drainer just emptied, so the
                // entries become the queue where they are, stamped in place, and the sender
                // keeps the queue's empty buffer; no entry is copied (each copy retained and
                // released the action's payload).
                for index in entries.indices { stamp(&entries[index], in: &state) }
                swap(&state.queue, &entries)
            } else {
                for index in entries.indices {
                    if index < taken { admit(entries[index], into: &state) } else { park(entries[index], in: &state) }
                }
                entries.removeAll(keepingCapacity: true)
            }
            return (taken, taken > 0 ? takeParkedDrainer(&state) : nil)
        }
    }

    @usableFromInline
    package func makeWaiterID() -> UInt64 {
        state.withLock { state in
            state.nextWaiterID &+= 1
            return state.nextWaiterID
        }
    }

    /// Appends, or parks the entry until the drainer frees room. A sender cancelled before it
    /// got room is refused. A `priority` entry (an effect's emission) ignores the pause and
    /// goes before other waiting senders.
    @usableFromInline
    package func submit(
        _ entry: Entry, waiterID: UInt64, admitted: UnsafeContinuation<Bool, Never>?, priority: Bool = false
    ) -> SubmitResult {
        state.withLock { state in
            guard !state.closed else { return .refused }
            let open = priority || (!state.paused && state.waiters.isEmpty)
            if open, state.queue.count < capacity, state.priorityWaiters.isEmpty {
                admit(entry, into: &state)
                return .accepted(wake: takeParkedDrainer(&state))
            }
            guard !state.cancelledWaiters.contains(waiterID) else { return .refused }
            let waiter = Waiter(id: waiterID, entry: entry, admitted: admitted)
            if priority { state.priorityWaiters.append(waiter) } else { state.waiters.append(waiter) }
            return .parked
        }
    }

    /// Pauses (`+1`) or resumes (`-1`) admission of senders from outside; the last resume
    /// admits waiting senders into the room there is and wakes the drainer for them.
    package func changePauses(by delta: Int) {
        var admitted: [UnsafeContinuation<Bool, Never>] = []
        let drainer: UnsafeContinuation<Bool, Never>? = state.withLock { state in
            state.pauses += delta
            guard !state.paused else { return nil }
            admitWaiters(into: &state, continuations: &admitted)
            return state.queue.isEmpty ? nil : takeParkedDrainer(&state)
        }
        for continuation in admitted { continuation.resume(returning: true) }
        drainer?.resume(returning: true)
    }

    /// Releases a parked sender whose task was cancelled; remembers the id when it has not
    /// parked yet, so a later `submit` refuses it.
    @usableFromInline
    package func cancelWaiter(_ id: UInt64) {
        let waiter: Waiter? = state.withLock { state in
            if let index = state.waiters.firstIndex(where: { $0.id == id }) {
                return state.waiters.remove(at: index)
            }
            if let index = state.priorityWaiters.firstIndex(where: { $0.id == id }) {
                return state.priorityWaiters.remove(at: index)
            }
            state.cancelledWaiters.insert(id)
            return nil
        }
        waiter?.admitted?.resume(returning: false)
        waiter?.entry.completion?.refused()
    }

    /// Drops the bookkeeping of a finished wait.
    @usableFromInline
    package func forgetWaiter(_ id: UInt64) {
        state.withLock { _ = $0.cancelledWaiters.remove(id) }
    }

    /// Waits until something is queued. Returns `false` once the inbox is closed and empty:
    /// the drainer's work is done.
    @usableFromInline
    package func waitForWork() async -> Bool {
        await withUnsafeContinuation { (continuation: UnsafeContinuation<Bool, Never>) in
            let ready: Bool? = state.withLock { state in
                if !state.queue.isEmpty { return true }
                if state.closed { return false }
                state.parkedDrainer = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// Takes every queued action and admits parked senders into the freed room. `spare`, an
    /// array whose buffer the caller no longer needs, becomes the new queue so that steady
    /// traffic allocates nothing. `nil` when nothing is queued.
    @inlinable
    package func takeBatch(spare: inout [Entry]) -> [Entry]? {
        spare.removeAll(keepingCapacity: true)
        var admitted: [UnsafeContinuation<Bool, Never>] = []
        let found: Bool = state.withLock { state in
            guard !state.queue.isEmpty else { return false }
            swap(&state.queue, &spare)
            if !state.waiters.isEmpty || !state.priorityWaiters.isEmpty {
                admitWaiters(into: &state, continuations: &admitted)
            }
            return true
        }
        for continuation in admitted { continuation.resume(returning: true) }
        guard found else { return nil }
        defer { spare = [] }
        return spare
    }

    /// Refuses every later append and releases parked senders; queued actions still drain,
    /// then the drainer's ``waitForWork()`` returns `false`.
    @usableFromInline
    package func close() {
        let (waiters, drainer) = state.withLock { state in
            state.closed = true
            defer { state.waiters.removeAll(); state.priorityWaiters.removeAll() }
            return (state.priorityWaiters + state.waiters, takeParkedDrainer(&state))
        }
        for waiter in waiters {
            waiter.admitted?.resume(returning: false)
            waiter.entry.completion?.refused()
        }
        drainer?.resume(returning: false)
    }

    /// Moves waiting senders into the queue's free room: effects' emissions first, then, unless
    /// paused, the others, each list in arrival order.
    @usableFromInline
    package func admitWaiters(into state: inout State, continuations: inout [UnsafeContinuation<Bool, Never>]) {
        var room = capacity - state.queue.count
        var taken = 0
        while taken < state.priorityWaiters.count, room > 0 {
            let waiter = state.priorityWaiters[taken]
            admit(waiter.entry, into: &state)
            if let continuation = waiter.admitted { continuations.append(continuation) }
            taken += 1
            room -= 1
        }
        state.priorityWaiters.removeFirst(taken)
        guard !state.paused else { return }
        taken = 0
        while taken < state.waiters.count, room > 0 {
            let waiter = state.waiters[taken]
            admit(waiter.entry, into: &state)
            if let continuation = waiter.admitted { continuations.append(continuation) }
            taken += 1
            room -= 1
        }
        state.waiters.removeFirst(taken)
    }

    @inlinable
    package func admit(_ entry: Entry, into state: inout State) {
        var entry = entry
        stamp(&entry, in: &state)
        state.queue.append(entry)
    }

    /// Gives `entry` the next sequence number: the order it is reduced in.
    @inlinable
    package func stamp(_ entry: inout Entry, in state: inout State) {
        entry.sequence = state.nextSequence
        state.nextSequence &+= 1
    }

    /// How many of `count` arriving actions go into the queue now, with room reserved for
    /// them: as many as fit, but none while senders wait or admission is paused, so arrivals
    /// never overtake them.
    package func room(for count: Int, in state: inout State) -> Int {
        guard !state.paused, state.waiters.isEmpty, state.priorityWaiters.isEmpty else { return 0 }
        let taken = min(count, max(0, capacity - state.queue.count))
        state.queue.reserveCapacity(state.queue.count + taken)
        return taken
    }

    /// Puts `entry` behind the queue as a parked sender that needs no resuming: waiter id 0 is
    /// never cancelled, since these senders do not wait in a task.
    package func park(_ entry: Entry, in state: inout State) {
        state.waiters.append(Waiter(id: 0, entry: entry, admitted: nil))
    }

    @inlinable
    package func takeParkedDrainer(_ state: inout State) -> UnsafeContinuation<Bool, Never>? {
        defer { state.parkedDrainer = nil }
        return state.parkedDrainer
    }
}

extension StoreInbox {
    /// Enqueues `action`, waiting for room, without waiting for it to be reduced. A `token`
    /// marks an effect's emission: it goes before senders from outside and ignores the pause.
    /// Returns `false` when the inbox is closed or the task was cancelled while waiting.
    package func enqueue(_ action: Action, token: EffectToken? = nil) async -> Bool {
        let id = makeWaiterID()
        defer { forgetWaiter(id) }
        return await withTaskCancellationHandler {
            await withUnsafeContinuation { (admitted: UnsafeContinuation<Bool, Never>) in
                let entry = Entry(action: action, completion: nil, token: token)
                switch submit(entry, waiterID: id, admitted: admitted, priority: token != nil) {
                case .accepted(let wake):
                    wake?.resume(returning: true)
                    admitted.resume(returning: true)
                case .parked:
                    break
                case .refused:
                    admitted.resume(returning: false)
                }
            }
        } onCancel: {
            cancelWaiter(id)
        }
    }

    /// An effect's emission (see ``enqueue(_:token:)``).
    package func enqueueEmission(_ action: Action, token: EffectToken) async -> Bool {
        await enqueue(action, token: token)
    }
}
