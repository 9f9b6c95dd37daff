import Synchronization
import SwitchyardStreams

/// The store's `actions` subscribers: a bounded buffer each, filled a reduced batch at a time by
/// the drainer and emptied a whole buffer at a time by the subscriber's iterator.
///
/// A reduced batch is one array shared by every subscriber: a buffer holds slices of those
/// arrays, never copies. Delivering a batch costs the drainer one slice per subscriber, not one
/// copy of each action per subscriber, and eight subscribers read the same memory instead of
/// eight copies of it (with copies, `store.dispatch` with 8 subscribers moved each action
/// through the caches nine times). The arrays are never mutated once delivered.
///
/// A `.suspendProducer` subscriber more than its capacity behind makes the drainer wait — the
/// store's backpressure — unless the task consuming it is itself inside `dispatch`/`enqueue`
/// of this store: it waits for the drainer, so the drainer must not wait for it (reacting to
/// an action by dispatching never deadlocks; its buffer grows by the batches reduced meanwhile,
/// at most the inbox's capacity plus the senders waiting). A subscriber that holds the store
/// up or starts dropping is named in one log line when the episode starts and one when it has
/// recovered (see ``SubscriberEpisode``), never once per stall.
/// Hot paths are inlinable so a client's store runs specialized code.
@usableFromInline
final class ActionFanout<Action: Sendable>: Sendable {
    @usableFromInline
    struct Slot: Sendable {
        @usableFromInline let id: Int
        @usableFromInline let name: String
        @usableFromInline let capacity: Int
        @usableFromInline let policy: OverflowPolicy
        @usableFromInline let status: ActionSubscriberStatus
        /// Slices of reduced batches, oldest first, none empty; shared with the other subscribers.
        @usableFromInline var buffer: [ArraySlice<Action>] = []
        /// The actions in `buffer`.
        @usableFromInline var buffered = 0
        @usableFromInline var consumer: UnsafeContinuation<Void, Never>?
        /// The task that iterates this subscriber, as seen by its last refill.
        @usableFromInline var consumerTask: Int?
        /// How many calls of that task into the store are in progress.
        @usableFromInline var inStore = 0
        /// Its current episode of holding the store up or dropping.
        @usableFromInline var episode: SubscriberEpisode

        @inlinable
        var holdsStore: Bool { policy == .suspendProducer && buffered > capacity && inStore == 0 }

        /// Buffers `batch` by the overflow policy; returns a log line when an episode of
        /// dropping starts.
        @inlinable
        mutating func offer(_ batch: [Action]) -> String? {
            guard !batch.isEmpty else { return nil }
            var dropped = 0
            switch policy {
            case .suspendProducer:
                append(batch[...])
            case .dropNewest:
                let room = max(0, capacity - buffered)
                if room > 0 { append(batch.prefix(room)) }
                dropped = batch.count - min(room, batch.count)
            case .dropOldest:
                append(batch[...])
                dropped = max(0, buffered - capacity)
                if dropped > 0 { dropFirst(dropped) }
            case .latest:
                dropped = buffered + batch.count - 1
                buffer.removeAll(keepingCapacity: true)
                buffered = 0
                append(batch.suffix(1))
            }
            guard dropped > 0 else { return nil }
            status.dropped.add(dropped, ordering: .relaxed)
            return episode.dropped(dropped).map(line)
        }

        @inlinable
        mutating func append(_ slice: ArraySlice<Action>) {
            buffer.append(slice)
            buffered += slice.count
        }

        /// Removes the oldest `count` buffered actions (`count` ≤ `buffered`).
        @inlinable
        mutating func dropFirst(_ count: Int) {
            var remaining = count
            var whole = 0
            while remaining > 0 {
                let size = buffer[whole].count
                if size <= remaining {
                    remaining -= size
                    whole += 1
                } else {
                    buffer[whole] = buffer[whole].dropFirst(remaining)
                    remaining = 0
                }
            }
            buffer.removeFirst(whole)
            buffered -= count
        }

        /// Moves every buffered slice into `batches` (emptied before).
        @inlinable
        mutating func take(into batches: inout [ArraySlice<Action>]) {
            swap(&buffer, &batches)
            buffered = 0
        }

        /// The log line of an episode's start or end.
        @usableFromInline
        func line(_ event: SubscriberEpisode.Event) -> String {
            switch event {
            case .startedHolding(let buffered):
                return "store: actions subscriber '\(name)' has \(buffered) unread actions (capacity \(capacity)); the store waits for it (overflow .suspendProducer): read it, cancel it, or subscribe with overflow: .dropOldest"
            case .startedDropping:
                return "store: actions subscriber '\(name)' fell more than \(capacity) actions behind; dropping (\(policy)) until it catches up"
            case .recovered(let waits, let dropped):
                return "store: actions subscriber '\(name)' caught up; " + Self.counts(waits: waits, dropped: dropped)
            case .ended(let waits, let dropped):
                return "store: actions subscriber '\(name)' ended before catching up; " + Self.counts(waits: waits, dropped: dropped)
            }
        }

        @usableFromInline
        static func counts(waits: Int, dropped: Int) -> String {
            "in this episode the store waited for it \(waits) time\(waits == 1 ? "" : "s") and it dropped \(dropped) action\(dropped == 1 ? "" : "s")"
        }
    }

    @usableFromInline
    struct State: Sendable {
        @usableFromInline var slots: [Slot] = []
        @usableFromInline var finished = false
        @usableFromInline var nextID = 0
        @usableFromInline var producer: UnsafeContinuation<Bool, Never>?

        @inlinable init() {}

        @inlinable
        func index(of id: Int) -> Int? { slots.firstIndex { $0.id == id } }

        @inlinable
        mutating func takeProducer() -> UnsafeContinuation<Bool, Never>? {
            defer { producer = nil }
            return producer
        }
    }

    @usableFromInline let state = Mutex(State())
    /// Subscribers whose consuming task is known: `dispatch` looks itself up only when some are.
    @usableFromInline let trackedConsumers = Atomic<Int>(0)
    @usableFromInline let log: @Sendable (String) -> Void

    @usableFromInline
    init(log: @escaping @Sendable (String) -> Void) {
        self.log = log
    }

    // MARK: Producing (the drainer)

    /// Buffers `batch` for every subscriber, then waits while one that chose
    /// `.suspendProducer` is more than its capacity behind and not waiting for the store.
    @inlinable
    func deliver(_ batch: [Action]) async {
        var logs: [String] = []
        let (consumers, mustWait) = state.withLock { state in
            var consumers: [UnsafeContinuation<Void, Never>] = []
            var mustWait = false
            for index in state.slots.indices {
                if let line = state.slots[index].offer(batch) { logs.append(line) }
                if !state.slots[index].episode.isCalm, let event = state.slots[index].episode.delivered(batch.count) {
                    logs.append(state.slots[index].line(event))
                }
                if let consumer = state.slots[index].consumer, !state.slots[index].buffer.isEmpty {
                    state.slots[index].consumer = nil
                    consumers.append(consumer)
                }
                mustWait = mustWait || state.slots[index].holdsStore
            }
            return (consumers, mustWait)
        }
        for consumer in consumers { consumer.resume() }
        for line in logs { log(line) }
        if mustWait { await waitWhileHeldUp() }
    }

    @usableFromInline
    func waitWhileHeldUp() async {
        while true {
            // The line is logged before parking: nothing might ever wake this task again.
            let line = state.withLock { state -> String? in
                guard let index = state.slots.firstIndex(where: \.holdsStore),
                      let event = state.slots[index].episode.held(buffered: state.slots[index].buffered) else { return nil }
                state.slots[index].status.stalls.add(1, ordering: .relaxed)
                return state.slots[index].line(event)
            }
            if let line { log(line) }
            let held: Bool = await withUnsafeContinuation { (continuation: UnsafeContinuation<Bool, Never>) in
                let parked = state.withLock { state -> Bool in
                    guard !state.finished, state.slots.contains(where: \.holdsStore) else { return false }
                    state.producer = continuation
                    return true
                }
                if !parked { continuation.resume(returning: false) }
            }
            if !held { return }
        }
    }

    /// Ends every subscriber once it has read what it buffered.
    @usableFromInline
    func finish() {
        let (consumers, producer) = state.withLock { state in
            state.finished = true
            var consumers: [UnsafeContinuation<Void, Never>] = []
            for index in state.slots.indices {
                if let consumer = state.slots[index].consumer { consumers.append(consumer) }
                state.slots[index].consumer = nil
            }
            return (consumers, state.takeProducer())
        }
        for consumer in consumers { consumer.resume() }
        producer?.resume(returning: true)
    }

    // MARK: Subscribing

    @usableFromInline
    func subscribe(name: String, bufferSize: Int, overflow: OverflowPolicy) -> StoreActions<Action> {
        precondition(bufferSize >= 1, "actions(bufferSize:): bufferSize must be at least 1, got \(bufferSize)")
        let status = ActionSubscriberStatus()
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            if !state.finished {
                let capacity = overflow == .latest ? 1 : bufferSize
                state.slots.append(Slot(id: state.nextID, name: name, capacity: capacity, policy: overflow, status: status,
                                        episode: SubscriberEpisode(capacity: capacity)))
            }
            return state.nextID
        }
        return StoreActions(fanout: self, id: id, status: status, name: name, bufferSize: bufferSize, overflow: overflow)
    }

    @usableFromInline
    func unsubscribe(_ id: Int) {
        let (consumer, producer, line) = state.withLock { state -> (UnsafeContinuation<Void, Never>?, UnsafeContinuation<Bool, Never>?, String?) in
            guard let index = state.index(of: id) else { return (nil, nil, nil) }
            var slot = state.slots.remove(at: index)
            if slot.consumerTask != nil { trackedConsumers.subtract(1, ordering: .relaxed) }
            return (slot.consumer, state.takeProducer(), slot.episode.end().map(slot.line))
        }
        if let line { log(line) }
        consumer?.resume()
        producer?.resume(returning: true)
    }

    // MARK: Consuming

    /// Swaps the subscriber's buffered slices into `batches` (emptied); `nil` = ended, `false` = empty.
    @inlinable
    func take(_ id: Int, into batches: inout [ArraySlice<Action>], task: Int?) -> Bool? {
        batches.removeAll(keepingCapacity: true)
        let (outcome, producer) = state.withLock { state -> (Bool?, UnsafeContinuation<Bool, Never>?) in
            guard let index = state.index(of: id) else { return (nil, nil) }
            if state.slots[index].consumerTask != task {
                if state.slots[index].consumerTask == nil { trackedConsumers.add(1, ordering: .relaxed) }
                state.slots[index].consumerTask = task
            }
            guard !state.slots[index].buffer.isEmpty else {
                guard state.finished else { return (false, nil) }
                state.slots.remove(at: index)
                trackedConsumers.subtract(1, ordering: .relaxed)
                return (nil, state.takeProducer())
            }
            state.slots[index].take(into: &batches)
            return (true, state.takeProducer())
        }
        producer?.resume(returning: true)
        return outcome
    }

    /// Parks the consumer until its buffer has actions, the store ends or it is unsubscribed;
    /// an empty buffer also ends an episode of stalling or dropping.
    @inlinable
    func waitForActions(_ id: Int, isolation actor: isolated (any Actor)?) async {
        await withTaskCancellationHandler {
            await withUnsafeContinuation(isolation: actor) { (continuation: UnsafeContinuation<Void, Never>) in
                let parked = state.withLock { state -> Bool in
                    guard let index = state.index(of: id), state.slots[index].buffer.isEmpty, !state.finished else {
                        return false
                    }
                    state.slots[index].episode.caughtUp()
                    state.slots[index].consumer = continuation
                    return true
                }
                if !parked { continuation.resume() }
            }
        } onCancel: {
            unsubscribe(id)
        }
    }

    /// Returns actions an abandoned iterator took but did not consume to the buffer's front.
    @usableFromInline
    func putBack(_ actions: [ArraySlice<Action>], for id: Int) {
        let slices = actions.filter { !$0.isEmpty }
        state.withLock { state in
            guard let index = state.index(of: id) else { return }
            state.slots[index].buffer.insert(contentsOf: slices, at: 0)
            state.slots[index].buffered += slices.reduce(0) { $0 + $1.count }
        }
    }

    // MARK: The consuming task inside the store

    /// Marks the subscribers consumed by the calling task as waiting for the store, so the
    /// drainer does not wait for them; returns their ids for ``leaveStore(_:)``.
    @inlinable
    func enterStore() -> [Int] {
        guard trackedConsumers.load(ordering: .relaxed) > 0,
              let task = withUnsafeCurrentTask(body: { $0?.hashValue }) else { return [] }
        let (ids, producer) = state.withLock { state -> ([Int], UnsafeContinuation<Bool, Never>?) in
            var ids: [Int] = []
            for index in state.slots.indices where state.slots[index].consumerTask == task {
                state.slots[index].inStore += 1
                ids.append(state.slots[index].id)
            }
            return (ids, ids.isEmpty ? nil : state.takeProducer())
        }
        producer?.resume(returning: true)
        return ids
    }

    @inlinable
    func leaveStore(_ ids: [Int]) {
        guard !ids.isEmpty else { return }
        state.withLock { state in
            for id in ids {
                if let index = state.index(of: id) { state.slots[index].inStore -= 1 }
            }
        }
    }

    /// Each subscriber's figures, for ``StoreStatistics``.
    var statistics: [ActionSubscriberStatistics] {
        state.withLock { state in
            state.slots.map {
                ActionSubscriberStatistics(name: $0.name, buffered: $0.buffered,
                                           dropped: $0.status.dropped.load(ordering: .relaxed),
                                           stalls: $0.status.stalls.load(ordering: .relaxed),
                                           holdingStore: $0.holdsStore)
            }
        }
    }
}
