import Synchronization

/// The connection and subscribers behind every copy of one `share()` sequence.
///
/// The upstream task is created by the first `next` of any subscriber and cancelled when the
/// last subscriber leaves. The producer waits on this storage only inside that task, and the
/// storage resumes it whenever it disconnects; that is why the wait has no cancellation
/// handler of its own.
final class ShareStorage<Base: AsyncSequence & Sendable>: Sendable where Base.Element: Sendable {
    typealias Element = Base.Element
    typealias Failure = Base.Failure
    typealias Machine = ShareStateMachine<Element, Failure>
    private typealias Consumer = UnsafeContinuation<Result<Element?, Failure>, Never>

    private struct State {
        var machine: Machine
        var waiting: [UInt64: Consumer] = [:]
        var producer: UnsafeContinuation<Void, Never>?
        var task: Task<Void, Never>?

        /// Hands deliveries to waiting subscribers, and room to a waiting producer.
        mutating func settle() -> [(Consumer, Result<Element?, Failure>)] {
            var resumptions: [(Consumer, Result<Element?, Failure>)] = []
            for (id, consumer) in waiting {
                if let delivery = machine.take(id) {
                    waiting[id] = nil
                    resumptions.append((consumer, delivery.result))
                }
            }
            return resumptions
        }

        mutating func producerIfRoom() -> UnsafeContinuation<Void, Never>? {
            guard producer != nil, machine.canOffer || !machine.isConnected else { return nil }
            defer { producer = nil }
            return producer
        }
    }

    private let base: Base
    private let state: Mutex<State>

    init(base: Base, replay: Int, capacity: Int, policy: OverflowPolicy) {
        self.base = base
        state = Mutex(State(machine: Machine(replay: replay, capacity: capacity, policy: policy)))
    }

    func subscribe() -> UInt64 {
        state.withLock { $0.machine.subscribe() }
    }

    func unsubscribe(_ id: UInt64) {
        let (consumer, producer, task) = state.withLock { state in
            let consumer = state.waiting.removeValue(forKey: id)
            guard state.machine.unsubscribe(id) else { return (consumer, state.producerIfRoom(), nil as Task<Void, Never>?) }
            defer { state.task = nil }
            return (consumer, state.producerIfRoom(), state.task)
        }
        task?.cancel()
        producer?.resume()
        consumer?.resume(returning: .success(nil))
    }

    func next(_ id: UInt64, isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
        if Task.isCancelled {
            unsubscribe(id)
            return nil
        }
        let (delivery, producer) = state.withLock { state in
            let delivery = state.machine.take(id)
            if delivery == nil, let generation = state.machine.connectIfNeeded() {
                state.task = Task { await self.runUpstream(generation: generation) }
            }
            return (delivery, state.producerIfRoom())
        }
        producer?.resume()
        if let delivery { return try delivery.result.get() }

        let result = await withTaskCancellationHandler {
            await withUnsafeContinuation(isolation: actor) { (consumer: Consumer) in
                let ready = state.withLock { state -> Result<Element?, Failure>? in
                    if let delivery = state.machine.take(id) { return delivery.result }
                    state.waiting[id] = consumer
                    return nil
                }
                if let ready { consumer.resume(returning: ready) }
            }
        } onCancel: {
            unsubscribe(id)
        }
        return try result.get()
    }

    private func runUpstream(generation: UInt64) async {
        let end = await drain(base) { element in await offer(element, generation: generation) }
        let resumptions = state.withLock { state -> [(Consumer, Result<Element?, Failure>)] in
            guard state.machine.isCurrent(generation) else { return [] }
            state.machine.upstreamEnded(end)
            state.task = nil
            return state.settle()
        }
        for (consumer, result) in resumptions { consumer.resume(returning: result) }
    }

    /// Offers one element, waiting while a `.suspendProducer` subscriber is full.
    /// - Returns: `false` when the connection has gone, so the upstream stops.
    private func offer(_ element: Element, generation: UInt64) async -> Bool {
        while true {
            let (current, offered, resumptions) = state.withLock { state -> (Bool, Bool, [(Consumer, Result<Element?, Failure>)]) in
                guard state.machine.isCurrent(generation) else { return (false, false, []) }
                guard state.machine.canOffer else { return (true, false, []) }
                state.machine.offer(element)
                return (true, true, state.settle())
            }
            for (consumer, result) in resumptions { consumer.resume(returning: result) }
            guard current else { return false }
            if offered { return true }
            await withUnsafeContinuation { (producer: UnsafeContinuation<Void, Never>) in
                let resumeNow = state.withLock { state in
                    guard state.machine.isCurrent(generation), !state.machine.canOffer else { return true }
                    state.producer = producer
                    return false
                }
                if resumeNow { producer.resume() }
            }
        }
    }
}
