/// The state of one broadcast, mutated only under its lock.
///
/// Every operation returns the continuations it made ready (``_Wakeups``); the caller resumes
/// them after unlocking. `current` is used by ``CurrentValue`` only.
@usableFromInline
struct _BroadcastState<Element: Sendable>: Sendable {
    /// What a consumer found when it came to take its buffered elements.
    @usableFromInline
    enum TakeOutcome: Sendable {
        /// The buffered elements were swapped into the consumer's batch.
        case taken
        /// Nothing is buffered and nothing more will come: the subscriber is unregistered.
        case ended
        /// Nothing is buffered yet.
        case empty
    }

    @usableFromInline var subscribers: [_SubscriberSlot<Element>] = []
    @usableFromInline var current: Element?
    @usableFromInline var isFinished = false
    @usableFromInline var nextSubscriberID = 0
    @usableFromInline var waits: [Int: ProducerWait] = [:]
    @usableFromInline var nextWaitID = 0
    /// The send-order bookkeeping of subscribers linked by `withLatestFrom`, by subscriber id.
    /// While it is empty (no link on this broadcast) sending and taking skip it with one check.
    @usableFromInline var links: [Int: _SlotLink] = [:]

    @inlinable
    init(current: Element?) {
        self.current = current
    }

    @inlinable
    func index(of id: Int) -> Int? {
        subscribers.firstIndex { $0.id == id }
    }

    /// Finds subscriber `id`, trying `hint` (where it was last time) first and updating it: a
    /// consumer that scanned every slot would pull all of them away from the producer's cache.
    @inlinable
    func index(of id: Int, hint: inout Int) -> Int? {
        if hint < subscribers.count, subscribers[hint].id == id {
            return hint
        }
        guard let index = index(of: id) else { return nil }
        hint = index
        return index
    }

    // MARK: Producing

    /// Offers `element` to every subscriber; returns `false` when one of them dropped an
    /// element (a full buffer), or the broadcast has finished.
    @inlinable
    @discardableResult
    mutating func send(_ element: Element, wakeups: inout _Wakeups) -> Bool {
        guard !isFinished else { return false }
        if _slowPath(!links.isEmpty) {
            return sendLinked(element, wakeups: &wakeups)
        }
        return subscribers.withUnsafeMutableBufferPointer { slots in
            var buffered = true
            for index in slots.indices where !slots[index].offer(element, wakeups: &wakeups) {
                buffered = false
            }
            return buffered
        }
    }

    /// Offers `element` to every subscriber that has room or does not wait, and queues it as
    /// pending for every full `.suspendProducer` subscriber, under the wait it returns (nil when
    /// nothing had to wait).
    @inlinable
    mutating func deliver(_ element: Element, wait: Int?, wakeups: inout _Wakeups) -> Int? {
        guard !isFinished else { return wait }
        if _slowPath(!links.isEmpty) {
            return deliverLinked(element, wait: wait, wakeups: &wakeups)
        }
        let firstFull: Int? = subscribers.withUnsafeMutableBufferPointer { slots in
            for index in slots.indices where !slots[index].offerUnlessFull(element, wakeups: &wakeups) {
                return index
            }
            return nil
        }
        guard let firstFull else { return wait }
        return deliver(element, from: firstFull, wait: wait, wakeups: &wakeups)
    }

    /// The rest of ``deliver(_:wait:wakeups:)`` from the first subscriber that must wait on.
    @inlinable
    mutating func deliver(_ element: Element, from firstFull: Int, wait: Int?, wakeups: inout _Wakeups) -> Int {
        let id = wait ?? beginWait()
        var queued = 0
        for index in firstFull..<subscribers.count where !subscribers[index].offerUnlessFull(element, wakeups: &wakeups) {
            subscribers[index].pending.append(_PendingElement(element: element, wait: id, stamp: 0))
            queued += 1
        }
        waits[id, default: ProducerWait()].remaining += queued
        return id
    }

    @usableFromInline
    mutating func finish(wakeups: inout _Wakeups) {
        guard !isFinished else { return }
        isFinished = true
        for index in subscribers.indices {
            if let consumer = subscribers[index].consumer {
                subscribers[index].consumer = nil
                wakeups.append(consumer)
            }
        }
    }

    // MARK: Subscribing

    /// Registers a subscriber and returns its id; after `finish` the id stays unregistered, so
    /// the subscription ends at once. With `replayingCurrent`, the current value is buffered first.
    @usableFromInline
    mutating func subscribe(
        bufferSize: Int,
        policy: OverflowPolicy,
        status: _SubscriberStatus,
        replayingCurrent: Bool
    ) -> Int {
        let id = nextSubscriberID
        nextSubscriberID += 1
        guard !isFinished else { return id }
        var slot = _SubscriberSlot<Element>(id: id, bufferSize: bufferSize, policy: policy, status: status)
        if replayingCurrent, let current {
            slot.buffer.append(current)
        }
        subscribers.append(slot)
        return id
    }

    /// Unregisters a subscriber, waking its consumer and releasing producers waiting for it.
    @usableFromInline
    mutating func unsubscribe(_ id: Int, wakeups: inout _Wakeups) {
        guard let index = index(of: id) else { return }
        let slot = subscribers.remove(at: index)
        if let consumer = slot.consumer {
            wakeups.append(consumer)
        }
        var pending = slot.pending
        while let element = pending.popFirst() {
            settlePending(of: element.wait, wakeups: &wakeups)
        }
    }

    // MARK: Consuming

    /// Swaps the subscriber's buffered elements into `batch` (which must be empty), then admits
    /// pending elements into the freed buffer.
    @inlinable
    mutating func take(
        _ id: Int,
        hint: inout Int,
        into batch: inout _FIFOBuffer<Element>,
        wakeups: inout _Wakeups
    ) -> TakeOutcome {
        take(id, hint: &hint, into: &batch, wakeups: &wakeups) { links in
            // A plain take of a linked slot (not `withLatestFrom`'s) keeps the stamps parallel.
            if _slowPath(!links.isEmpty) { links[id]?.stamps.removeAll() }
        }
    }

    /// The one take both kinds share: swaps the buffer into `batch`, lets `takeStamps` deal
    /// with a linked slot's stamps (before pending elements add theirs), then admits pending
    /// elements into the freed buffer.
    @inlinable
    mutating func take(
        _ id: Int,
        hint: inout Int,
        into batch: inout _FIFOBuffer<Element>,
        wakeups: inout _Wakeups,
        takeStamps: (inout [Int: _SlotLink]) -> Void
    ) -> TakeOutcome {
        guard let index = index(of: id, hint: &hint) else { return .ended }
        if subscribers[index].buffer.isEmpty {
            guard isFinished else { return .empty }
            subscribers.remove(at: index)
            return .ended
        }
        swap(&subscribers[index].buffer, &batch)
        takeStamps(&links)
        if !subscribers[index].pending.isEmpty {
            admitPending(at: index, wakeups: &wakeups)
        }
        return .taken
    }

    @inlinable
    mutating func admitPending(at index: Int, wakeups: inout _Wakeups) {
        let id = subscribers[index].id
        let isLinked = !links.isEmpty && links[id] != nil
        while subscribers[index].buffer.count < subscribers[index].capacity, !subscribers[index].pending.isEmpty {
            let pending = subscribers[index].pending.removeFirst()
            subscribers[index].buffer.append(pending.element)
            if isLinked {
                links[id]?.stamps.append(pending.stamp)
            }
            settlePending(of: pending.wait, wakeups: &wakeups)
        }
    }

    /// Stores a consumer's continuation; returns true when it must resume at once (elements
    /// arrived, the broadcast finished, or the subscriber is gone).
    @inlinable
    mutating func parkConsumer(_ id: Int, hint: inout Int, _ continuation: UnsafeContinuation<Void, Never>) -> Bool {
        guard let index = index(of: id, hint: &hint) else { return true }
        guard subscribers[index].buffer.isEmpty, !isFinished else { return true }
        // One iterator consumes a registration at a time (a second one subscribes anew), so
        // an earlier continuation cannot be here; should one be, it is woken, never lost.
        if let earlier = subscribers[index].consumer {
            earlier.resume()
        }
        subscribers[index].consumer = continuation
        return false
    }

    /// Returns elements an abandoned iterator had taken but not consumed to the front of the
    /// subscriber's buffer, so a later iterator of the same subscription continues with them.
    @usableFromInline
    mutating func putBack(_ batch: _FIFOBuffer<Element>, for id: Int, wakeups: inout _Wakeups) {
        guard let index = index(of: id) else { return }
        subscribers[index].buffer.prepend(batch)
        if let consumer = subscribers[index].consumer {
            subscribers[index].consumer = nil
            wakeups.append(consumer)
        }
    }
}
