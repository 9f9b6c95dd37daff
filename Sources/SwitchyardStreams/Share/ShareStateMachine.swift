/// The pure state of `share`: the subscribers and what each has not taken yet, the replay
/// buffer, and the upstream connection.
///
/// The first subscriber connects the upstream (its iterator is made at once), the first `next`
/// of any subscriber starts reading it, and the last subscriber to leave disconnects it. Each
/// connection has a generation, so a disconnected upstream task that is still winding down
/// can no longer deliver.
@usableFromInline struct ShareStateMachine<Element: Sendable, Failure: Error>: Sendable {
    @usableFromInline typealias Output = OperatorOutput<Element, Failure>

    @usableFromInline let replayCount: Int
    /// Elements a subscriber may have waiting before the overflow policy applies.
    @usableFromInline let capacity: Int
    @usableFromInline let policy: OverflowPolicy
    @usableFromInline var subscribers: [UInt64: Output] = [:]
    @usableFromInline var replay: [Element] = []
    @usableFromInline var end: Result<Void, Failure>?
    @usableFromInline var nextID: UInt64 = 0
    @usableFromInline var generation: UInt64 = 0
    @usableFromInline var isConnected = false
    /// Whether a subscriber of the current connection has asked for an element.
    @usableFromInline var isStarted = false

    @inlinable init(replay: Int, capacity: Int, policy: OverflowPolicy) {
        replayCount = replay
        self.capacity = policy == .latest ? 1 : capacity
        self.policy = policy
    }

    @inlinable var subscriberCount: Int { subscribers.count }

    /// Adds a subscriber that gets the replayed elements, then everything offered from now on
    /// (or the end, when the upstream has already ended).
    /// - Returns: The subscriber's ID, and the generation of a new connection when this
    ///   subscriber has to connect the upstream.
    @inlinable mutating func subscribe() -> (id: UInt64, connection: UInt64?) {
        var connection: UInt64?
        if !isConnected, end == nil {
            generation += 1
            isConnected = true
            isStarted = false
            connection = generation
        }
        nextID += 1
        var output = Output()
        for element in replay { output.emit(element) }
        switch end {
        case .success: output.finish()
        case .failure(let failure): output.fail(failure)
        case nil: break
        }
        subscribers[nextID] = output
        return (nextID, connection)
    }

    /// Removes a subscriber.
    /// - Returns: `true` when it was the last one of a connection, which is then disconnected
    ///   (and its replay buffer emptied) so the upstream can be cancelled.
    @inlinable mutating func unsubscribe(_ id: UInt64) -> Bool {
        guard subscribers.removeValue(forKey: id) != nil, subscribers.isEmpty, isConnected else { return false }
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
        return subscribers[id]?.take()
    }

    /// Whether an element can be offered now: with `.suspendProducer`, only when every
    /// subscriber has room.
    @inlinable var canOffer: Bool {
        policy != .suspendProducer || subscribers.values.allSatisfy { $0.bufferedCount < capacity }
    }

    /// Hands `element` to every subscriber (applying the overflow policy to full ones) and
    /// keeps it for replay.
    @inlinable mutating func offer(_ element: Element) {
        if replayCount > 0 {
            if replay.count == replayCount { replay.removeFirst() }
            replay.append(element)
        }
        for id in subscribers.keys {
            if subscribers[id, default: Output()].bufferedCount >= capacity {
                switch policy {
                case .dropNewest:
                    continue
                case .dropOldest, .latest:
                    subscribers[id]?.dropOldest()
                case .suspendProducer:
                    // Offered only once `canOffer` holds; a replay larger than the capacity
                    // may still overfill a new subscriber, which then just holds one more.
                    break
                }
            }
            subscribers[id]?.emit(element)
        }
    }

    /// Ends the connection: every subscriber gets the end after what it has not taken, and
    /// later subscribers get the replay and the end.
    @inlinable mutating func upstreamEnded(_ result: Result<Void, Failure>) {
        end = result
        isConnected = false
        for id in subscribers.keys {
            switch result {
            case .success: subscribers[id]?.finish()
            case .failure(let failure): subscribers[id]?.fail(failure)
            }
        }
    }
}
