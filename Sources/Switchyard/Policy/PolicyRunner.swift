import Synchronization

/// Runs work for each element of a sequence under a ``WorkPolicy`` on the
/// ``WorkPolicyStateMachine``, optionally after a trailing-edge debounce on `clock`: the driver
/// behind ``_Concurrency/AsyncSequence/forEach(policy:_:)`` and network-fetch.
///
/// Work runs in tasks of its own so `latest` can cancel one, and a `latest` work starts only
/// after the work it superseded returned. `every` and `queue` stop reading the sequence while
/// every slot is taken, so waiting triggers stay in the subscription buffer. ``run(_:work:)``
/// returns when the sequence ends (after the work in flight finishes and a debounced trigger has
/// run) or when its task is cancelled (after cancelling and awaiting the work in flight).
package struct PolicyRunner: Sendable {
    package var policy: WorkPolicy
    /// Quiet time required after a trigger before it is acted on; `nil` acts at once.
    package var debounce: Duration?
    package var clock: any Clock<Duration>
    /// Told about each trigger the policy ignores and each piece of work that ended (its slot is
    /// free again).
    package var observe: @Sendable (Event) -> Void

    /// What ``observe`` is told.
    package enum Event: Sendable, Hashable {
        /// A trigger was ignored (`leading` while busy).
        case dropped
        /// Work ended and its slot is free again.
        case finished
    }

    package init(
        policy: WorkPolicy, debounce: Duration? = nil, clock: any Clock<Duration> = ContinuousClock(),
        observe: @escaping @Sendable (Event) -> Void = { _ in }
    ) {
        self.policy = policy
        self.debounce = debounce
        self.clock = clock
        self.observe = observe
    }

    package func run<Triggers: AsyncSequence & Sendable>(
        _ triggers: Triggers, work: @escaping @Sendable (Triggers.Element) async -> Void
    ) async where Triggers.Element: Sendable, Triggers.Failure == Never {
        let driver = PolicyDriver(policy: policy, debounce: debounce, clock: clock, observe: observe, work: work)
        await withTaskCancellationHandler {
            for await element in triggers { await driver.submit(element) }
            await driver.drain()
        } onCancel: {
            driver.cancelAll()
        }
    }
}

/// The tasks of one ``PolicyRunner/run(_:work:)``: the machine, the running work, the readers
/// waiting for their element to start and the debounce timer, under one lock.
private final class PolicyDriver<Element: Sendable>: Sendable {
    private struct State: Sendable {
        var machine = WorkPolicyStateMachine<Int, Element>()
        var tasks: [Int: Task<Void, Never>] = [:]
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var timer: (ticket: Int, task: Task<Void, Never>)?
        var cancelled = false
    }

    /// The only group: every element of a sequence is judged against the same work.
    private static var group: Int { 0 }

    private let state = Mutex(State())
    private let policy: WorkPolicy
    private let debounce: Duration?
    private let clock: any Clock<Duration>
    private let observe: @Sendable (PolicyRunner.Event) -> Void
    private let work: @Sendable (Element) async -> Void

    init(policy: WorkPolicy, debounce: Duration?, clock: any Clock<Duration>,
         observe: @escaping @Sendable (PolicyRunner.Event) -> Void, work: @escaping @Sendable (Element) async -> Void) {
        self.policy = policy
        self.debounce = debounce
        self.clock = clock
        self.observe = observe
        self.work = work
    }

    /// Admits `element` (after the debounce, when there is one); while it waits for a slot,
    /// suspends the reader so the next element stays unread.
    func submit(_ element: Element) async {
        if let debounce {
            arm(element, after: debounce)
            return
        }
        var dropped = false
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withLock { state -> Bool in
                guard !state.cancelled, !Task.isCancelled else { return true }
                let admission = state.machine.submit(element, policy: policy, group: Self.group)
                if case .waiting(let id) = admission {
                    state.waiters[id] = continuation
                    return false
                }
                dropped = apply(admission, element, &state)
                return true
            }
            if resumeNow { continuation.resume() }
        }
        if dropped { observe(.dropped) }
    }

    /// Cancels the work in flight and the debounce timer and wakes every waiting reader; later
    /// elements are refused.
    func cancelAll() {
        let waiters = state.withLock { state in
            state.cancelled = true
            state.timer?.task.cancel()
            for task in state.tasks.values { task.cancel() }
            _ = state.machine.cancelAll()
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once no work runs, waits or is debounced.
    func drain() async {
        while let task = state.withLock({ $0.timer?.task ?? $0.tasks.values.first }) {
            await task.value
        }
    }

    private func arm(_ element: Element, after delay: Duration) {
        state.withLock { state in
            guard !state.cancelled, !Task.isCancelled else { return }
            let ticket = state.machine.debounce(element, policy: policy, group: Self.group).ticket
            state.timer?.task.cancel()
            let clock = clock
            let task = Task {
                let slept: Bool
                do {
                    try await clock.sleep(for: delay)
                    slept = true
                } catch {
                    slept = false
                }
                let dropped = self.state.withLock { state -> Bool in
                    if state.timer?.ticket == ticket { state.timer = nil }
                    guard slept, !state.cancelled, let (job, admission) = state.machine.quietPeriodEnded(ticket) else {
                        return false
                    }
                    return self.apply(admission, job, &state)
                }
                if dropped { self.observe(.dropped) }
            }
            state.timer = (ticket, task)
        }
    }

    /// Starts the admitted work; true when the policy ignored it. Waiting work starts later,
    /// from ``finished(_:)``.
    @discardableResult
    private func apply(_ admission: WorkPolicyStateMachine<Int, Element>.Admission, _ element: Element,
                       _ state: inout State) -> Bool {
        switch admission {
        case .start(let id, let cancelling, _):
            let superseded = cancelling.compactMap { state.tasks[$0] }
            for task in superseded { task.cancel() }
            start(id, element, after: superseded, &state)
            return false
        case .waiting:
            return false
        case .ignored:
            return true
        }
    }

    private func start(_ id: Int, _ element: Element, after superseded: [Task<Void, Never>], _ state: inout State) {
        let work = work
        state.tasks[id] = Task {
            // The superseded work must be gone before this one can do anything.
            for task in superseded { await task.value }
            if !Task.isCancelled { await work(element) }
            self.finished(id)
        }
    }

    private func finished(_ id: Int) {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.tasks[id] = nil
            var waiters: [CheckedContinuation<Void, Never>] = []
            for next in state.machine.finished(id) {
                start(next.id, next.job, after: [], &state)
                if let waiter = state.waiters.removeValue(forKey: next.id) { waiters.append(waiter) }
            }
            return waiters
        }
        observe(.finished)
        for waiter in waiters { waiter.resume() }
    }
}
