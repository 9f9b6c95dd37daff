/// The pure state of `share`: the subscribers and what each has not taken yet, the replay
/// buffer, and the upstream connection.
///
/// The first subscriber connects the upstream (its iterator is made at once), the first `next`
/// of any subscriber starts reading it, and the last subscriber to leave disconnects it. The
/// upstream is read only while a subscriber wants more (``hasDemand``): the fastest one sets the
/// pace, and nothing is read ahead of it beyond ``readAhead`` elements. Each
/// connection has a generation, so a disconnected upstream task that is still winding down
/// can no longer deliver.
@usableFromInline struct ShareStateMachine<Element: Sendable, Failure: Error>: Sendable {
    @usableFromInline typealias Output = OperatorOutput<Element, Failure>

    /// One subscriber: what it has not taken, and its own bound and overflow policy.
    @usableFromInline struct Subscriber: Sendable {
        @usableFromInline var output = Output()
        /// Elements it may have waiting before its overflow policy applies.
        @usableFromInline let capacity: Int
        @usableFromInline let policy: OverflowPolicy

        @inlinable init(capacity: Int, policy: OverflowPolicy) {
            self.capacity = policy == .latest ? 1 : capacity
            self.policy = policy
        }

        /// Whether this subscriber can ever hold the upstream back: a bounded `.suspendProducer`.
        @inlinable var mayHoldBack: Bool {
            policy == .suspendProducer && capacity < .max
        }

        /// Whether the upstream has to wait for this subscriber before offering more.
        @inlinable var holdsBack: Bool {
            mayHoldBack && output.bufferedCount >= capacity
        }

        /// Elements it may have waiting and still ask for more: its bound, at most ``readAhead``.
        @inlinable var demandLimit: Int {
            Swift.min(capacity, ShareStateMachine.readAhead)
        }

        /// Whether it has fewer than ``demandLimit`` elements waiting, so the upstream is read for it.
        @inlinable var wantsMore: Bool {
            !output.isEnded && output.bufferedCount < demandLimit
        }

        /// Whether it has taken so much that a reader waiting for demand should go on: half of
        /// ``demandLimit``, so the reader wakes once per batch, not per element.
        @inlinable var wakesReader: Bool {
            !output.isEnded && output.bufferedCount <= demandLimit / 2
        }
    }

    /// Elements the upstream is read ahead of its fastest subscriber. A source that never
    /// suspends is read in batches of this size, then waits, so it cannot hold a thread and
    /// fill the subscribers' buffers without bound.
    @inlinable static var readAhead: Int { 16 }

    @usableFromInline let replayCount: Int
    @usableFromInline var subscribers: [UInt64: Subscriber] = [:]
    /// How many subscribers may hold the upstream back (see `Subscriber.mayHoldBack`); with
    /// none, offering skips looking at every subscriber.
    @usableFromInline var suspendingCount = 0
    @usableFromInline var replay: [Element] = []
    @usableFromInline var end: Result<Void, Failure>?
    @usableFromInline var nextID: UInt64 = 0
    @usableFromInline var generation: UInt64 = 0
    @usableFromInline var isConnected = false
    /// Whether a subscriber of the current connection has asked for an element.
    @usableFromInline var isStarted = false

    @inlinable init(replay: Int) {
        replayCount = replay
    }

    @inlinable var subscriberCount: Int { subscribers.count }

    /// Adds a subscriber that gets the replayed elements, then everything offered from now on
    /// (or the end, when the upstream has already ended).
    /// - Returns: The subscriber's ID, and the generation of a new connection when this
    ///   subscriber has to connect the upstream.
    @inlinable mutating func subscribe(capacity: Int, policy: OverflowPolicy) -> (id: UInt64, connection: UInt64?) {
        var connection: UInt64?
        if !isConnected, end == nil {
            generation += 1
            isConnected = true
            isStarted = false
            connection = generation
        }
        nextID += 1
        var subscriber = Subscriber(capacity: capacity, policy: policy)
        for element in replay { subscriber.output.emit(element) }
        switch end {
        case .success: subscriber.output.finish()
        case .failure(let failure): subscriber.output.fail(failure)
        case nil: break
        }
        if subscriber.mayHoldBack { suspendingCount += 1 }
        subscribers[nextID] = subscriber
        return (nextID, connection)
    }

    /// Removes a subscriber.
    /// - Returns: `true` when it was the last one of a connection, which is then disconnected
    ///   (and its replay buffer emptied) so the upstream can be cancelled.
    @inlinable mutating func unsubscribe(_ id: UInt64) -> Bool {
        guard let removed = subscribers.removeValue(forKey: id) else { return false }
        if removed.mayHoldBack { suspendingCount -= 1 }
        guard subscribers.isEmpty, isConnected else { return false }
        isConnected = false
        replay = []
        return true
    }

    /// A subscriber asks for an element: the upstream is read from now on.
    /// - Returns: Whether this started the reading.
    @inlinable mutating func start() -> Bool {
        guard isConnected, !isStarted else { return false }
        isStarted = true
        return true
    }

    /// Whether `generation` is the live connection.
    @inlinable func isCurrent(_ generation: UInt64) -> Bool {
        isConnected && generation == self.generation
    }

    /// What subscriber `id` gets next, or `nil` when it has to wait; a removed subscriber
    /// gets the end.
    @inlinable mutating func take(_ id: UInt64) -> Output.Delivery? {
        guard subscribers[id] != nil else { return .end(.success(())) }
        return subscribers[id]?.output.take()
    }

    /// Whether a subscriber wants more, so the upstream is read.
    @inlinable var hasDemand: Bool {
        subscribers.values.contains { $0.wantsMore }
    }

    /// Whether an element can be offered now: only when every `.suspendProducer` subscriber
    /// has room; the others never hold the upstream back.
    @inlinable var canOffer: Bool {
        suspendingCount == 0 || !subscribers.values.contains { $0.holdsBack }
    }

    /// Hands `element` to every subscriber (applying the overflow policy to full ones) and
    /// keeps it for replay.
    @inlinable mutating func offer(_ element: Element) {
        if replayCount > 0 {
            if replay.count == replayCount { replay.removeFirst() }
            replay.append(element)
        }
        for id in subscribers.keys {
            subscribers[id]?.offer(element)
        }
    }

    /// Ends the connection: every subscriber gets the end after what it has not taken, and
    /// later subscribers get the replay and the end.
    @inlinable mutating func upstreamEnded(_ result: Result<Void, Failure>) {
        end = result
        isConnected = false
        for id in subscribers.keys {
            switch result {
            case .success: subscribers[id]?.output.finish()
            case .failure(let failure): subscribers[id]?.output.fail(failure)
            }
        }
    }
}

extension ShareStateMachine.Subscriber {
    /// Buffers `element`, applying the overflow policy when the buffer is full.
    @inlinable mutating func offer(_ element: Element) {
        if output.bufferedCount >= capacity {
            switch policy {
            case .dropNewest:
                return
            case .dropOldest, .latest:
                output.dropOldest()
            case .suspendProducer:
                // Offered only once `canOffer` holds; a replay larger than the capacity
                // may still overfill a new subscriber, which then just holds one more.
                break
            }
        }
        output.emit(element)
    }
}
