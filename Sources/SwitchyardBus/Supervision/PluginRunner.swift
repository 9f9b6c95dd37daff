import Synchronization
import SwitchyardIO
import SwitchyardStreams

/// Supervises one plugin as a child of the bus's task group: reports failures, restarts with
/// backoff per its policy, and stops it gracefully.
///
/// The child (``run(firstActions:)``) runs the supervision loop in a task it owns and waits
/// for it, so the group, and with it `Bus.run`, cannot end while the plugin runs. The one
/// exception is a plugin that ignores cancellation past its stop timeout: it is logged once,
/// counted (`abandonedPlugins` in the statistics) and released, so stopping stays bounded.
package final class PluginRunner: Sendable {
    let name: String
    let kind: String
    let plugin: any Plugin
    private let policy: RestartPolicy
    private let core: PluginHost
    /// Becomes `true` when the plugin reports ready (or at start, for immediate readiness).
    let ready = CurrentValue(false)
    /// Becomes `true` once supervision began (the status is past `.pending`: `run` is called)
    /// or the runner will never run.
    private let supervising = CurrentValue(false)
    /// Becomes `true` when supervision has ended for good.
    let ended = CurrentValue(false)
    /// Opens when the child may return: supervision ended, or the runner was abandoned.
    private let released = Latch()
    private let state: Mutex<RunnerState>

    /// How long a cancelled plugin gets to end even when the stop timeout is spent (by the
    /// plugins stopped before it), so a well-behaved plugin is never taken for a runaway.
    static let cancellationGrace = Duration.milliseconds(500)

    private struct RunnerState: Sendable {
        var task: Task<Void, Never>?
        var abandoned = false
        var actions: PluginActions?
        var status: PluginStatus = .pending
        var restarts = 0
        var failures = 0
        var lastError: String?
        /// Set once the bus asked the plugin to stop: whatever `run` does then, it is not restarted.
        var stopping = false
    }

    init(name: String, kind: String, plugin: any Plugin, policy: RestartPolicy, core: PluginHost) {
        self.name = name
        self.kind = kind
        self.plugin = plugin
        self.policy = policy
        self.core = core
        self.state = Mutex(RunnerState())
    }

    package var statistics: PluginStatistics {
        state.withLock { state in
            PluginStatistics(name: name, kind: kind, status: state.status, restarts: state.restarts,
                             failures: state.failures, emitted: core.counters.emitted(by: name),
                             droppedActions: state.actions?.droppedCount ?? 0,
                             queued: state.actions?.subscription?.bufferedCount ?? 0, lastError: state.lastError,
                             received: core.router.received(by: name), reported: core.reporters.values(of: name))
        }
    }

    /// Starts the runner as a child of `group`, with the subscription registered before any
    /// plugin started. Returns `false` when the group no longer takes children (the bus
    /// stopped); then nothing runs.
    @discardableResult
    func start(in group: RunnerGroup, actions: PluginActions?) -> Bool {
        if case .immediate = plugin.readiness { ready.send(true) }
        guard group.start(self, actions: actions) else {
            state.withLock { $0.status = .stopped }
            supervising.send(true)
            ended.send(true)
            released.open()
            return false
        }
        return true
    }

    /// The runner's child in the bus's task group: supervises the plugin and returns once
    /// supervision ended for good, or the runner was abandoned by ``stop(timeout:)``.
    func run(firstActions: PluginActions?) async {
        let task = Task {
            await self.supervise(clock: self.core.clock, firstActions: firstActions)
            self.released.open()
        }
        // A stop that came before the child ran found no task to cancel.
        if state.withLock({ state in
            state.task = task
            return state.stopping
        }) {
            task.cancel()
        }
        await released.wait()
    }

    /// Waits up to `timeout` for the plugin to report ready; `false` on timeout or cancellation.
    func waitUntilReady(timeout: Duration) async -> Bool {
        await ready.wait(for: { $0 }, timeout: timeout)
    }

    /// Waits until the runner's child has begun supervising (the plugin's status is past
    /// `.pending`) or will never run, so a bus that says it is ready lists no plugin as pending.
    func waitUntilSupervised() async {
        for await begun in supervising where begun { return }
    }

    /// Waits as ``waitUntilReady(timeout:)`` does, but gives up (`false`) as soon as `stop`
    /// becomes `true`: a bus asked to stop during start-up does not wait out a readiness timeout.
    func waitUntilReady(timeout: Duration, unless stop: CurrentValue<Bool>) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask { await self.waitUntilReady(timeout: timeout) }
            group.addTask {
                for await stopping in stop.subscribe() where stopping { return false }
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }

    /// Stops the plugin within `timeout`: ends its action streams so it can drain what it
    /// buffered, cancels it (at once when it reads no actions, else after a short grace), and
    /// waits (at least ``cancellationGrace`` after cancelling). Returns `false` when it did not
    /// end in time: then it was abandoned (logged once, counted) and its child released.
    @discardableResult
    func stop(timeout: Duration) async -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        let task = state.withLock { state in
            state.stopping = true
            return state.task
        }
        core.router.finish(owner: name)
        if plugin.subscription != nil {
            let grace = min(.seconds(1), timeout / 2)
            if await ended.wait(for: { $0 }, timeout: grace) { return true }
        }
        task?.cancel()
        let remaining = max(Self.cancellationGrace, clock.now.duration(to: deadline))
        if await ended.wait(for: { $0 }, timeout: remaining) { return true }
        abandon()
        return false
    }

    /// Gives up on a plugin that ignored cancellation: it runs on in its task until the
    /// process exits, but the bus no longer waits for it.
    private func abandon() {
        let first = state.withLock { state in
            defer { state.abandoned = true }
            return !state.abandoned
        }
        guard first else { return }
        core.counters.countAbandoned()
        core.log.write(.warning, "did not stop within the stop timeout; abandoned", plugin: name)
        released.open()
    }

    private func supervise<C: Clock>(clock: C, firstActions: PluginActions?) async where C.Duration == Duration {
        let origin = clock.now
        var machine = RestartStateMachine(policy: policy)
        var actions = firstActions
        defer { ended.send(true) }
        if state.withLock({ $0.stopping }) {
            state.withLock { $0.status = .stopped }
            supervising.send(true)
            return
        }
        while true {
            state.withLock {
                $0.actions = actions
                $0.status = .running
            }
            supervising.send(true)
            let context = PluginContext(name: name, actions: actions ?? PluginActions(subscription: nil), core: core,
                                        readinessSignal: { [ready] in ready.send(true) })
            let startedAt = origin.duration(to: clock.now)
            var failure: (any Error)?
            do {
                try await plugin.run(context: context)
            } catch {
                failure = error
            }
            let stopping = state.withLock { state in
                if Task.isCancelled || state.stopping { state.status = .stopped }
                return Task.isCancelled || state.stopping
            }
            if stopping { return }
            let decision = machine.runEnded(failed: failure != nil, startedAt: startedAt,
                                            endedAt: origin.duration(to: clock.now))
            if let failure { await report(failure, decision: decision) }
            guard case .restart(let delay) = decision else {
                state.withLock { $0.status = failure == nil ? .stopped : .failed }
                if case .stop(.restartLimitReached) = decision {
                    core.log.write(.error, "gave up after \(policy.maxRestarts) restarts within \(policy.window)", plugin: name)
                }
                return
            }
            state.withLock { $0.status = .restarting }
            do {
                try await clock.sleep(for: delay)
            } catch {
                state.withLock { $0.status = .stopped }
                return
            }
            actions = plugin.subscription.map { core.subscribe($0, owner: name) }
            let restarts = state.withLock { state in
                state.restarts += 1
                return state.restarts
            }
            core.log.write(.info, "restarted (restart \(restarts))", plugin: name)
            await core.emit("bus/plugin-restarted", payload: ["plugin": .string(name), "restarts": .integer(Int64(restarts))])
        }
    }

    private func report(_ failure: any Error, decision: RestartStateMachine.Decision) async {
        // The error may quote the plugin's configuration (a URL, an endpoint, a command).
        let message = core.log.secrets.redact(String(describing: failure))
        let failures = state.withLock { state in
            state.failures += 1
            state.lastError = message
            return state.failures
        }
        var restartIn: JSON = .null
        if case .restart(let delay) = decision { restartIn = .number(delay.seconds) }
        core.log.write(.warning, "failed: \(message)", plugin: name)
        await core.emit("bus/plugin-failed", payload: [
            "plugin": .string(name), "kind": .string(kind), "error": .string(message),
            "failures": .integer(Int64(failures)), "restartIn": restartIn,
        ])
    }
}

extension Duration {
    /// The duration in seconds, as a `Double` (SwitchyardIO's ``secondsValue``).
    package var seconds: Double { secondsValue }
}

extension CurrentValue where Element: Sendable {
    /// Waits until the value satisfies `condition`, up to `timeout` of real time. Returns
    /// `false` on timeout, when the value finishes, or when the task is cancelled.
    func wait(for condition: @escaping @Sendable (Element) -> Bool, timeout: Duration) async -> Bool {
        guard timeout > .zero else { return condition(value) }
        return await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                for await value in self.subscribe() where condition(value) { return true }
                return false
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }
}
