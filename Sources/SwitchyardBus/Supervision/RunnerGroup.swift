import Synchronization

/// The plugin runners `Bus.run` supervises as children of its task group.
///
/// Start-up and reload hand runners in with ``start(_:actions:)``; the group's body reads them
/// with ``next()`` and adds each as a child, so a runner a reload starts is as much a child as
/// one started first (swift-service-lifecycle's ServiceGroup funnels services added at run
/// time into its group the same way). It also remembers the start order, which stopping
/// reverses.
final class RunnerGroup: Sendable {
    /// A runner to add to the group, with the subscription registered before it started.
    struct Start: Sendable {
        let runner: PluginRunner
        let actions: PluginActions?
    }

    private struct State {
        var pending: [Start] = []
        var waiter: CheckedContinuation<Start?, Never>?
        var finished = false
        var started: [PluginRunner] = []
    }

    private let state = Mutex(State())

    /// Queues `runner` to become a child of the group. Returns `false` once the group has
    /// finished (the bus stopped), when nothing can start any more.
    @discardableResult
    func start(_ runner: PluginRunner, actions: PluginActions?) -> Bool {
        let start = Start(runner: runner, actions: actions)
        let (accepted, waiter) = state.withLock { state -> (Bool, CheckedContinuation<Start?, Never>?) in
            guard !state.finished else { return (false, nil) }
            state.started.append(runner)
            if let waiter = state.waiter {
                state.waiter = nil
                return (true, waiter)
            }
            state.pending.append(start)
            return (true, nil)
        }
        waiter?.resume(returning: start)
        return accepted
    }

    /// The next runner to add, in the order they were queued; `nil` once ``finish()`` was
    /// called and every queued runner was taken. Not ended by cancellation: the group's body
    /// reads until the bus has stopped every child. One reader at a time.
    func next() async -> Start? {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Start?? in
                if !state.pending.isEmpty { return .some(state.pending.removeFirst()) }
                if state.finished { return .some(nil) }
                state.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// Ends ``next()`` once the queue is empty; later starts are refused.
    func finish() {
        let waiter = state.withLock { state in
            state.finished = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: nil)
    }

    /// The runners started and not yet forgotten, in start order.
    var started: [PluginRunner] {
        state.withLock { $0.started }
    }

    /// Forgets runners a reload stopped, so stopping the bus does not stop them again.
    func forget(_ runners: [PluginRunner]) {
        let gone = Set(runners.map(ObjectIdentifier.init))
        state.withLock { $0.started.removeAll { gone.contains(ObjectIdentifier($0)) } }
    }
}

/// A gate that opens once and stays open; waiting is not ended by cancellation, so a task
/// group's child waiting on it ends exactly when the gate opens.
final class Latch: Sendable {
    private let state = Mutex<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    /// Opens the gate, resuming every waiter; later calls do nothing.
    func open() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard !state.open else { return [] }
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once the gate is open.
    func wait() async {
        await withCheckedContinuation { continuation in
            let isOpen = state.withLock { state in
                if !state.open { state.waiters.append(continuation) }
                return state.open
            }
            if isOpen { continuation.resume() }
        }
    }
}
