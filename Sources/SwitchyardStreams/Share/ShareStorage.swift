import Synchronization

/// The connection and subscribers behind every copy of one `share()` sequence.
///
/// The first subscriber makes the upstream's iterator and the task that will read it; the
/// task waits for the first `next` of any subscriber, and is cancelled when the last
/// subscriber leaves. It pulls the next element only while a subscriber wants more (see
/// `ShareStateMachine.hasDemand`), so it never reads a pull-based upstream ahead without bound.
/// The task waits on this storage only for that start, for demand and for room, and the
/// storage resumes each whenever it disconnects; that is why those waits have no cancellation
/// handler of their own.
@usableFromInline final class ShareStorage<Base: AsyncSequence & Sendable>: Sendable where Base.Element: Sendable {
    @usableFromInline typealias Element = Base.Element
    @usableFromInline typealias Failure = Base.Failure
    @usableFromInline typealias Machine = ShareStateMachine<Element, Failure>
    @usableFromInline typealias Consumer = UnsafeContinuation<Result<Element?, Failure>, Never>
    @usableFromInline typealias Resumptions = [(Consumer, Result<Element?, Failure>)]

    @usableFromInline struct State {
        @usableFromInline var machine: Machine
        @usableFromInline var waiting: [UInt64: Consumer] = [:]
        @usableFromInline var starter: UnsafeContinuation<Bool, Never>?
        @usableFromInline var producer: UnsafeContinuation<Void, Never>?
        /// The reader, waiting until a subscriber wants more.
        @usableFromInline var reader: UnsafeContinuation<Void, Never>?
        @usableFromInline var task: Task<Void, Never>?

        @inlinable init(machine: Machine) {
            self.machine = machine
        }

        /// Hands deliveries to waiting subscribers.
        @inlinable mutating func settle() -> Resumptions {
            var resumptions: Resumptions = []
            for (id, consumer) in waiting {
                if let delivery = machine.take(id) {
                    waiting[id] = nil
                    resumptions.append((consumer, delivery.result))
                }
            }
            return resumptions
        }

        /// The producer, if it waits and may go on (there is room, or it has to stop).
        @inlinable mutating func producerIfRoom() -> UnsafeContinuation<Void, Never>? {
            guard producer != nil, machine.canOffer || !machine.isConnected else { return nil }
            defer { producer = nil }
            return producer
        }

        /// The reader, if it waits for demand and subscriber `id` (any, when `nil`) now wants
        /// enough to wake it, or it has to stop.
        @inlinable mutating func readerIfDemand(from id: UInt64?) -> UnsafeContinuation<Void, Never>? {
            guard reader != nil else { return nil }
            if machine.isConnected {
                guard let id else { return nil }
                guard machine.subscribers[id]?.wakesReader == true else { return nil }
            }
            defer { reader = nil }
            return reader
        }
    }

    @usableFromInline let base: Base
    @usableFromInline let state: Mutex<State>

    @inlinable init(base: Base, replay: Int) {
        self.base = base
        state = Mutex(State(machine: Machine(replay: replay)))
    }

    // MARK: Subscribers

    /// Adds a subscriber; the first one connects the upstream by making its iterator.
    @inlinable func subscribe(capacity: Int, policy: OverflowPolicy) -> UInt64 {
        let (id, connection, reader) = state.withLock { state in
            let (id, connection) = state.machine.subscribe(capacity: capacity, policy: policy)
            return (id, connection, state.readerIfDemand(from: id))
        }
        reader?.resume()
        if let connection { connect(generation: connection) }
        return id
    }

    @inlinable func unsubscribe(_ id: UInt64) {
        let (consumer, producer, starter, task, reader) = state.withLock { state in
            let consumer = state.waiting.removeValue(forKey: id)
            guard state.machine.unsubscribe(id) else {
                return (consumer, state.producerIfRoom(), nil as UnsafeContinuation<Bool, Never>?, nil as Task<Void, Never>?, nil as UnsafeContinuation<Void, Never>?)
            }
            defer {
                state.task = nil
                state.starter = nil
            }
            return (consumer, state.producerIfRoom(), state.starter, state.task, state.readerIfDemand(from: nil))
        }
        task?.cancel()
        starter?.resume(returning: false)
        reader?.resume()
        producer?.resume()
        consumer?.resume(returning: .success(nil))
    }

    @inlinable func next(_ id: UInt64, isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
        if Task.isCancelled {
            unsubscribe(id)
            return nil
        }
        let (delivery, starter, producer, reader) = state.withLock { state in
            let starter = state.machine.start() ? state.starter.take() : nil
            let delivery = state.machine.take(id)
            return (delivery, starter, state.producerIfRoom(), state.readerIfDemand(from: id))
        }
        starter?.resume(returning: true)
        producer?.resume()
        reader?.resume()
        if let delivery { return try delivery.result.get() }

        let result = await withTaskCancellationHandler {
            await withUnsafeContinuation(isolation: actor) { (consumer: Consumer) in
                let (ready, reader) = state.withLock { state -> (Result<Element?, Failure>?, UnsafeContinuation<Void, Never>?) in
                    if let delivery = state.machine.take(id) { return (delivery.result, nil) }
                    state.waiting[id] = consumer
                    return (nil, state.readerIfDemand(from: id))
                }
                reader?.resume()
                if let ready { consumer.resume(returning: ready) }
            }
        } onCancel: {
            unsubscribe(id)
        }
        return try result.get()
    }

    // MARK: Upstream

    @inlinable func connect(generation: UInt64) {
        let iterator = base.makeAsyncIterator()
        let task = Task {
            var iterator = iterator
            guard await self.waitForStart(generation: generation) else { return }
            await self.read(&iterator, generation: generation)
        }
        let stale = state.withLock { state in
            guard state.machine.isCurrent(generation) else { return true }
            state.task = task
            return false
        }
        if stale { task.cancel() }
    }

    @inlinable func waitForStart(generation: UInt64) async -> Bool {
        await withUnsafeContinuation { (starter: UnsafeContinuation<Bool, Never>) in
            let answer = state.withLock { state -> Bool? in
                guard state.machine.isCurrent(generation) else { return false }
                if state.machine.isStarted { return true }
                state.starter = starter
                return nil
            }
            if let answer { starter.resume(returning: answer) }
        }
    }

    /// Pulls while a subscriber wants more and offers each element; a disconnection stops it.
    @inlinable func read(_ iterator: inout Base.AsyncIterator, generation: UInt64) async {
        var end: Result<Void, Failure> = .success(())
        do throws(Failure) {
            while await waitForDemand(generation: generation), let element = try await iterator.next(isolation: nil) {
                guard await offer(element, generation: generation) else { return }
            }
        } catch {
            end = .failure(error)
        }
        let resumptions = state.withLock { state -> Resumptions in
            guard state.machine.isCurrent(generation) else { return [] }
            state.machine.upstreamEnded(end)
            state.task = nil
            return state.settle()
        }
        for (consumer, result) in resumptions { consumer.resume(returning: result) }
    }

    /// Waits until a subscriber wants more.
    /// - Returns: `false` when the connection has gone, so the upstream stops.
    @inlinable func waitForDemand(generation: UInt64) async -> Bool {
        let ready = state.withLock { state -> Bool? in
            guard state.machine.isCurrent(generation) else { return false }
            return state.machine.hasDemand ? true : nil
        }
        if let ready { return ready }
        await park(until: .demand, generation: generation)
        return state.withLock { $0.machine.isCurrent(generation) }
    }

    /// Offers one element, waiting while a `.suspendProducer` subscriber is full.
    /// - Returns: `false` when the connection has gone, so the upstream stops.
    @inlinable func offer(_ element: Element, generation: UInt64) async -> Bool {
        while true {
            let (current, offered, resumptions) = state.withLock { state -> (Bool, Bool, Resumptions) in
                guard state.machine.isCurrent(generation) else { return (false, false, []) }
                guard state.machine.canOffer else { return (true, false, []) }
                state.machine.offer(element)
                return (true, true, state.settle())
            }
            for (consumer, result) in resumptions { consumer.resume(returning: result) }
            guard current else { return false }
            if offered { return true }
            await park(until: .room, generation: generation)
        }
    }

    /// What the reader waits for.
    @usableFromInline enum ReaderWait: Sendable {
        /// A subscriber that wants more (it then waits in `State.reader`).
        case demand
        /// Room in every `.suspendProducer` subscriber (it then waits in `State.producer`).
        case room
    }

    /// Suspends the reader until the storage resumes it; returns at once when what it waits
    /// for is there or the connection has gone.
    @inlinable func park(until wait: ReaderWait, generation: UInt64) async {
        await withUnsafeContinuation { (reader: UnsafeContinuation<Void, Never>) in
            let resumeNow = state.withLock { state in
                guard state.machine.isCurrent(generation) else { return true }
                switch wait {
                case .demand:
                    if state.machine.hasDemand { return true }
                    state.reader = reader
                case .room:
                    if state.machine.canOffer { return true }
                    state.producer = reader
                }
                return false
            }
            if resumeNow { reader.resume() }
        }
    }
}
