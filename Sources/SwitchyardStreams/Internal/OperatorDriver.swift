import Synchronization

/// The engine shared by the operators that own tasks (merge, combineLatest, zip,
/// withLatestFrom, debounce, throttle, timeout, flatMapLatest, flatMap(maxConcurrent:)).
///
/// Under one lock it keeps the operator's pure state machine and its ``OperatorOutput``, so a
/// machine update and the emissions it causes are one atomic step. The operator makes its
/// inputs' iterators and spawns its tasks when its own iterator is made (so every input is
/// subscribed from that moment); the tasks wait with ``waitForStart()`` until the consumer's
/// first `next`, then update the machine and emit. The single consumer takes buffered
/// elements without suspending. Producers wait while ``capacity`` elements are buffered and
/// resume once the consumer has taken half of them, so nothing grows without bound.
///
/// The driver, the state machines and the operators are `@inlinable`, so a client module
/// specializes them for its element types: unspecialized, `switchyard-bench` spent most of
/// each element's time looking up generic metadata.
///
/// When the output ends, or the consumer leaves (its task is cancelled or its iterator is
/// released), every task is cancelled and every waiter resumed. A room wait also ends when its
/// own task is cancelled: `flatMapLatest` cancels one replaced inner task while the operator
/// runs on, and that task must not stay suspended. The bookkeeping of tasks and waiters is
/// bounded by the live ones (``State/bookkeepingCount``), however many come and go.
@usableFromInline final class OperatorDriver<Machine: Sendable, Element: Sendable, Failure: Error>: Sendable {
    @usableFromInline typealias Output = OperatorOutput<Element, Failure>
    @usableFromInline typealias Consumer = UnsafeContinuation<Result<Element?, Failure>, Never>

    @usableFromInline struct Watcher {
        @usableFromInline var condition: @Sendable (Machine) -> Bool
        @usableFromInline var continuation: UnsafeContinuation<Bool, Never>

        @inlinable init(condition: @escaping @Sendable (Machine) -> Bool, continuation: UnsafeContinuation<Bool, Never>) {
            self.condition = condition
            self.continuation = continuation
        }
    }

    @usableFromInline struct State {
        @usableFromInline var machine: Machine
        @usableFromInline var output = Output()
        @usableFromInline var started = false
        @usableFromInline var stopped = false
        @usableFromInline var consumer: Consumer?
        @usableFromInline var startWaiters: [UnsafeContinuation<Bool, Never>] = []
        /// Producers waiting for room, by waiter ID, so a cancelled producer can leave.
        @usableFromInline var roomWaiters: [UInt64: UnsafeContinuation<Void, Never>] = [:]
        @usableFromInline var nextWaiterID: UInt64 = 0
        @usableFromInline var watchers: [Watcher] = []
        @usableFromInline var tasks: [UInt64: Task<Void, Never>] = [:]
        /// Tasks spawned whose handle is not registered in `tasks` yet.
        @usableFromInline var unregistered: Set<UInt64> = []
        /// Tasks of `unregistered` that already ended; registration removes them again.
        @usableFromInline var endedEarly: Set<UInt64> = []
        @usableFromInline var nextTaskID: UInt64 = 0

        @inlinable init(machine: Machine) {
            self.machine = machine
        }

        /// Hands what is due to the waiters and stops the tasks once the output has ended.
        @inlinable mutating func settle(capacity: Int) -> Wakeups {
            var wakeups = Wakeups()
            if let waiting = consumer, let delivery = output.take() {
                consumer = nil
                wakeups.consumer = (waiting, delivery.result)
            }
            if started, !startWaiters.isEmpty {
                wakeups.starts = startWaiters.map { ($0, true) }
                startWaiters = []
            }
            if output.isEnded && !stopped {
                stopped = true
                wakeups.tasks = Array(tasks.values)
                tasks = [:]
                wakeups.starts += startWaiters.map { ($0, false) }
                startWaiters = []
                wakeups.room = Array(roomWaiters.values)
                roomWaiters = [:]
                wakeups.watchers = watchers.map { ($0.continuation, false) }
                watchers = []
                return wakeups
            }
            if !roomWaiters.isEmpty && output.bufferedCount <= capacity / 2 {
                wakeups.room = Array(roomWaiters.values)
                roomWaiters = [:]
            }
            if !watchers.isEmpty {
                let machine = self.machine
                let (due, waiting) = watchers.reduce(into: ([Watcher](), [Watcher]())) { split, watcher in
                    if watcher.condition(machine) { split.0.append(watcher) } else { split.1.append(watcher) }
                }
                watchers = waiting
                wakeups.watchers = due.map { ($0.continuation, true) }
            }
            return wakeups
        }

        /// Entries kept for tasks and waiters; bounded by the live ones, whatever the churn.
        @inlinable var bookkeepingCount: Int {
            tasks.count + unregistered.count + endedEarly.count + roomWaiters.count + watchers.count + startWaiters.count
        }
    }

    /// What to resume and cancel once the lock is released.
    @usableFromInline struct Wakeups {
        @usableFromInline var consumer: (Consumer, Result<Element?, Failure>)?
        @usableFromInline var starts: [(UnsafeContinuation<Bool, Never>, Bool)] = []
        @usableFromInline var room: [UnsafeContinuation<Void, Never>] = []
        @usableFromInline var watchers: [(UnsafeContinuation<Bool, Never>, Bool)] = []
        @usableFromInline var tasks: [Task<Void, Never>] = []

        @inlinable init() {}

        @inlinable func perform() {
            for task in tasks { task.cancel() }
            for (waiter, started) in starts { waiter.resume(returning: started) }
            for waiter in room { waiter.resume() }
            for (watcher, holds) in watchers { watcher.resume(returning: holds) }
            if let (consumer, result) = consumer { consumer.resume(returning: result) }
        }
    }

    /// How many buffered elements make producers wait.
    @usableFromInline let capacity: Int
    @usableFromInline let state: Mutex<State>

    /// - Parameters:
    ///   - machine: The operator's state machine in its initial state.
    ///   - capacity: Buffered elements at which producers wait; at least 1.
    @inlinable init(machine: Machine, capacity: Int = 64) {
        self.capacity = Swift.max(1, capacity)
        self.state = Mutex(State(machine: machine))
    }

    // MARK: Consumer side

    @inlinable func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
        if Task.isCancelled {
            cancel()
            return nil
        }
        let (delivery, wakeups) = state.withLock { state in
            state.started = true
            let delivery = state.output.take()
            return (delivery, state.settle(capacity: capacity))
        }
        wakeups.perform()
        if let delivery { return try delivery.result.get() }

        let result = await withTaskCancellationHandler {
            await withUnsafeContinuation(isolation: actor) { (consumer: Consumer) in
                let wakeups = state.withLock { state in
                    state.consumer = consumer
                    return state.settle(capacity: capacity)
                }
                wakeups.perform()
            }
        } onCancel: {
            cancel()
        }
        return try result.get()
    }

    /// The consumer left: drop what is buffered, stop every task, and end quietly.
    @inlinable func cancel() {
        let wakeups = state.withLock { state in
            state.output.discard()
            return state.settle(capacity: capacity)
        }
        wakeups.perform()
    }

    // MARK: Producer side

    /// Suspends until the consumer's first `next`.
    /// - Returns: `false` when the operator stopped before that (the iterator was released
    ///   unused), so the task ends without reading anything.
    @inlinable func waitForStart() async -> Bool {
        await withUnsafeContinuation { (waiter: UnsafeContinuation<Bool, Never>) in
            let answer = state.withLock { state -> Bool? in
                if state.stopped { return false }
                if state.started { return true }
                state.startWaiters.append(waiter)
                return nil
            }
            if let answer { waiter.resume(returning: answer) }
        }
    }

    /// Runs `body` on the machine and the output as one atomic step, then delivers.
    @discardableResult
    @inlinable func update<Result: Sendable>(_ body: @Sendable (inout Machine, inout Output) -> Result) -> Result {
        let (result, wakeups) = state.withLock { state in
            let result = body(&state.machine, &state.output)
            return (result, state.settle(capacity: capacity))
        }
        wakeups.perform()
        return result
    }

    /// Like ``update(_:)``, then waits while the buffer is full.
    /// - Returns: `false` once the operator has stopped, so a producer can stop too.
    @inlinable func updateThenWaitForRoom(_ body: @Sendable (inout Machine, inout Output) -> Void) async -> Bool {
        let (full, stopped, wakeups) = state.withLock { state in
            body(&state.machine, &state.output)
            let wakeups = state.settle(capacity: capacity)
            return (state.output.bufferedCount >= capacity, state.stopped, wakeups)
        }
        wakeups.perform()
        guard !stopped else { return false }
        guard full else { return true }
        return await waitForRoom()
    }

    /// Waits while the buffer is full, then runs `body` as one atomic step; `body` says
    /// whether its producer should go on (for example `false` for an inner sequence that was
    /// replaced while it waited, which then emits nothing).
    ///
    /// Waiting first keeps the buffer within ``capacity`` however many producers offer at
    /// once. The wait ends early when the calling task is cancelled.
    /// - Returns: `false` when `body` said so, the operator has stopped, or the task was
    ///   cancelled before `body` ran.
    @inlinable func waitForRoomThenOffer(_ body: @Sendable (inout Machine, inout Output) -> Bool) async -> Bool {
        while true {
            let (outcome, wakeups) = state.withLock { state -> (Bool?, Wakeups) in
                if state.stopped { return (false, Wakeups()) }
                guard state.output.bufferedCount < capacity else { return (nil, Wakeups()) }
                let goOn = body(&state.machine, &state.output)
                return (goOn, state.settle(capacity: capacity))
            }
            wakeups.perform()
            if let outcome { return outcome }
            guard await waitForRoom() else { return false }
        }
    }

    /// Suspends while the buffer is full.
    /// - Returns: `false` when the operator stopped or the task was cancelled meanwhile.
    @inlinable func waitForRoom() async -> Bool {
        let id = state.withLock { state -> UInt64 in
            state.nextWaiterID += 1
            return state.nextWaiterID
        }
        await withTaskCancellationHandler {
            await withUnsafeContinuation { (waiter: UnsafeContinuation<Void, Never>) in
                let resumeNow = state.withLock { state in
                    if state.stopped || state.output.bufferedCount < capacity || Task.isCancelled { return true }
                    state.roomWaiters[id] = waiter
                    return false
                }
                if resumeNow { waiter.resume() }
            }
        } onCancel: {
            state.withLock { $0.roomWaiters.removeValue(forKey: id) }?.resume()
        }
        return !Task.isCancelled && !state.withLock { $0.stopped }
    }

    /// Suspends until `condition` holds for the machine (re-checked after every update).
    /// - Returns: `true` when it holds, `false` when the operator stopped first.
    @inlinable func wait(until condition: @escaping @Sendable (Machine) -> Bool) async -> Bool {
        await withUnsafeContinuation { (continuation: UnsafeContinuation<Bool, Never>) in
            let answer = state.withLock { state -> Bool? in
                if state.stopped { return false }
                if condition(state.machine) { return true }
                state.watchers.append(Watcher(condition: condition, continuation: continuation))
                return nil
            }
            if let answer { continuation.resume(returning: answer) }
        }
    }

    /// Starts a task the driver owns and cancels when it stops. `body` may own an input's
    /// iterator, which moves into the task.
    /// - Returns: The task's ID for ``cancelTask(_:)``, or `nil` when the driver has stopped.
    @discardableResult
    @inlinable func spawn(_ body: sending @escaping () async -> Void) -> UInt64? {
        let reserved = state.withLock { state -> UInt64? in
            guard !state.stopped else { return nil }
            state.nextTaskID += 1
            state.unregistered.insert(state.nextTaskID)
            return state.nextTaskID
        }
        guard let id = reserved else { return nil }
        let task = Task {
            await body()
            self.taskEnded(id)
        }
        let cancelNow = state.withLock { state in
            state.unregistered.remove(id)
            if state.endedEarly.remove(id) != nil { return false }
            if state.stopped { return true }
            state.tasks[id] = task
            return false
        }
        if cancelNow { task.cancel() }
        return id
    }

    /// Cancels one owned task, if it is still running.
    @inlinable func cancelTask(_ id: UInt64) {
        state.withLock { $0.tasks.removeValue(forKey: id) }?.cancel()
    }

    @inlinable func taskEnded(_ id: UInt64) {
        state.withLock { state in
            // A task missing from `tasks` was cancelled by ID or at the stop (nothing to keep),
            // or has not been registered yet (remember it, so registration drops it).
            if state.tasks.removeValue(forKey: id) == nil, state.unregistered.contains(id) {
                state.endedEarly.insert(id)
            }
        }
    }
}
