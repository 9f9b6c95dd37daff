/// The pure state of `share`: the subscribers and what each has not taken yet, the replay
/// buffer, and the upstream connection.
///
/// The upstream is connected by a subscriber's first `next` and disconnected when the last
/// subscriber leaves; each connection has a generation, so a disconnected upstream task that
/// is still winding down can no longer deliver.
struct ShareStateMachine<Element: Sendable, Failure: Error>: Sendable {
    typealias Output = OperatorOutput<Element, Failure>

    let replayCount: Int
    /// Elements a subscriber may have waiting before the overflow policy applies.
    let capacity: Int
    let policy: OverflowPolicy
    private var subscribers: [UInt64: Output] = [:]
    private var replay: [Element] = []
    private var end: Result<Void, Failure>?
    private var nextID: UInt64 = 0
    private(set) var generation: UInt64 = 0
    private(set) var isConnected = false

    init(replay: Int, capacity: Int, policy: OverflowPolicy) {
        replayCount = replay
        self.capacity = policy == .latest ? 1 : capacity
        self.policy = policy
    }

    var subscriberCount: Int { subscribers.count }

    /// Adds a subscriber that gets the replayed elements, then everything offered from now on
    /// (or the end, when the upstream has already ended).
    mutating func subscribe() -> UInt64 {
        nextID += 1
        var output = Output()
        for element in replay { output.emit(element) }
        switch end {
        case .success: output.finish()
        case .failure(let failure): output.fail(failure)
        case nil: break
        }
        subscribers[nextID] = output
        return nextID
    }

    /// Removes a subscriber.
    /// - Returns: `true` when it was the last one of a connection, which is then disconnected
    ///   (and its replay buffer emptied) so the upstream can be cancelled.
    mutating func unsubscribe(_ id: UInt64) -> Bool {
        guard subscribers.removeValue(forKey: id) != nil, subscribers.isEmpty, isConnected else { return false }
        isConnected = false
        replay = []
        return true
    }

    /// Connects, when a subscriber asks for an element and nothing is connected or ended.
    /// - Returns: The new connection's generation, or `nil` when no connection is needed.
    mutating func connectIfNeeded() -> UInt64? {
        guard !isConnected, end == nil, !subscribers.isEmpty else { return nil }
        generation += 1
        isConnected = true
        return generation
    }

    /// Whether `generation` is the live connection.
    func isCurrent(_ generation: UInt64) -> Bool {
        isConnected && generation == self.generation
    }

    /// What subscriber `id` gets next, or `nil` when it has to wait; a removed subscriber
    /// gets the end.
    mutating func take(_ id: UInt64) -> Output.Delivery? {
        guard subscribers[id] != nil else { return .end(.success(())) }
        return subscribers[id]?.take()
    }

    /// Whether an element can be offered now: with `.suspendProducer`, only when every
    /// subscriber has room.
    var canOffer: Bool {
        policy != .suspendProducer || subscribers.values.allSatisfy { $0.bufferedCount < capacity }
    }

    /// Hands `element` to every subscriber (applying the overflow policy to full ones) and
    /// keeps it for replay.
    mutating func offer(_ element: Element) {
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
    mutating func upstreamEnded(_ result: Result<Void, Failure>) {
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
