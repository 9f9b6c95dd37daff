import Synchronization

/// The buffer, iterators and waiting tests behind one ``TestSource``.
final class TestSourceStorage<Element: Sendable, Failure: Error>: Sendable {
    enum Condition {
        case demand
        case termination
    }

    private typealias Delivery = UnsafeContinuation<Result<Element?, Failure>, Never>

    private struct State {
        var buffer: [Element] = []
        var head = 0
        var end: Failure?? = nil
        var endDelivered = false
        var iteratorCount = 0
        /// Iterators alive, and whether each was cancelled.
        var consumers: [UInt64: Bool] = [:]
        var waiters: [(call: UInt64, consumer: UInt64, continuation: Delivery)] = []
        var conditionWaiters: [UInt64: (condition: Condition, continuation: UnsafeContinuation<Void, Never>)] = [:]
        /// IDs of calls and consumers; calls cancelled before they registered.
        var waits = PendingWaits()

        var activeCount: Int { consumers.values.count { !$0 } }
        var isEmpty: Bool { head == buffer.count }

        /// What an iterator gets without waiting, or `nil` when it has to wait.
        mutating func take(for consumer: UInt64) -> Result<Element?, Failure>? {
            if consumers[consumer] != false { return .success(nil) }
            if !isEmpty {
                let element = buffer[head]
                head += 1
                if head == buffer.count {
                    buffer.removeAll(keepingCapacity: true)
                    head = 0
                }
                return .success(element)
            }
            guard let end else { return nil }
            if endDelivered { return .success(nil) }
            endDelivered = true
            return end.map { .failure($0) } ?? .success(nil)
        }

        func holds(_ condition: Condition) -> Bool {
            switch condition {
            case .demand:
                return isEmpty && (!waiters.isEmpty || endDelivered || (iteratorCount > 0 && activeCount == 0))
            case .termination:
                return iteratorCount > 0 && activeCount == 0
            }
        }

        mutating func satisfiedConditionWaiters() -> [UnsafeContinuation<Void, Never>] {
            let met = conditionWaiters.filter { holds($0.value.condition) }
            for id in met.keys { conditionWaiters[id] = nil }
            return met.map(\.value.continuation)
        }
    }

    private let state = Mutex(State())

    var iteratorCount: Int { state.withLock { $0.iteratorCount } }
    var activeIteratorCount: Int { state.withLock { $0.activeCount } }
    var bufferedCount: Int { state.withLock { $0.buffer.count - $0.head } }

    func send(_ element: Element) -> Bool {
        let (accepted, waiter) = state.withLock { state -> (Bool, Delivery?) in
            guard state.end == nil else { return (false, nil) }
            if !state.waiters.isEmpty {
                return (true, state.waiters.removeFirst().continuation)
            }
            state.buffer.append(element)
            return (true, nil)
        }
        waiter?.resume(returning: .success(element))
        return accepted
    }

    func terminate(with failure: Failure?) -> Bool {
        let (accepted, deliveries) = state.withLock { state -> (Bool, [(Delivery, Result<Element?, Failure>)]) in
            guard state.end == nil else { return (false, []) }
            state.end = .some(failure)
            let waiting = state.waiters
            state.waiters = []
            return (true, waiting.compactMap { waiter in state.take(for: waiter.consumer).map { (waiter.continuation, $0) } })
        }
        for (continuation, result) in deliveries { continuation.resume(returning: result) }
        resumeSatisfiedConditionWaiters()
        return accepted
    }

    func makeConsumer() -> Consumer {
        let id = state.withLock { state -> UInt64 in
            state.iteratorCount += 1
            let consumer = state.waits.uniqueID()
            state.consumers[consumer] = false
            return consumer
        }
        return Consumer(id: id, storage: self)
    }

    func next(consumer: UInt64, isolation actor: isolated (any Actor)?) async -> Result<Element?, Failure> {
        if let result = state.withLock({ $0.take(for: consumer) }) {
            resumeSatisfiedConditionWaiters()
            return result
        }
        let call = state.withLock { $0.waits.makeID() }
        let result = await withTaskCancellationHandler {
            await withUnsafeContinuation(isolation: actor) { (continuation: Delivery) in
                let ready = state.withLock { state -> Result<Element?, Failure>? in
                    if state.waits.register(call) {
                        state.consumers[consumer] = true
                        return .success(nil)
                    }
                    if let result = state.take(for: consumer) { return result }
                    state.waiters.append((call, consumer, continuation))
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
                resumeSatisfiedConditionWaiters()
            }
        } onCancel: {
            let waiter = state.withLock { state -> Delivery? in
                guard let index = state.waiters.firstIndex(where: { $0.call == call }) else {
                    state.waits.cancelEarly(call)
                    return nil
                }
                state.consumers[consumer] = true
                return state.waiters.remove(at: index).continuation
            }
            waiter?.resume(returning: .success(nil))
        }
        resumeSatisfiedConditionWaiters()
        return result
    }

    func release(consumer: UInt64) {
        state.withLock { _ = $0.consumers.removeValue(forKey: consumer) }
        resumeSatisfiedConditionWaiters()
    }

    func wait(for condition: Condition) async {
        let id = state.withLock { $0.waits.makeID() }
        await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
                let resumeNow = state.withLock { state -> Bool in
                    if state.waits.register(id) || state.holds(condition) { return true }
                    state.conditionWaiters[id] = (condition, continuation)
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state -> UnsafeContinuation<Void, Never>? in
                guard let waiter = state.conditionWaiters.removeValue(forKey: id) else {
                    state.waits.cancelEarly(id)
                    return nil
                }
                return waiter.continuation
            }
            waiter?.resume()
        }
    }

    private func resumeSatisfiedConditionWaiters() {
        for waiter in state.withLock({ $0.satisfiedConditionWaiters() }) { waiter.resume() }
    }

    /// One iterator's identity; releasing it tells the source the iterator is gone.
    final class Consumer {
        let id: UInt64
        let storage: TestSourceStorage

        init(id: UInt64, storage: TestSourceStorage) {
            self.id = id
            self.storage = storage
        }

        deinit {
            storage.release(consumer: id)
        }

        func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
            try await storage.next(consumer: id, isolation: actor).get()
        }
    }
}
