import Synchronization
import SwitchyardStreams

/// A Redux-style store: state changed only by a reducer, one action at a time, in arrival order.
///
/// Send actions from any task: ``send(_:)`` never blocks and reports whether the bounded inbox
/// took the action; ``dispatch(_:)`` waits for room and returns once the action is reduced.
/// Actions sent while another is being handled — by a middleware or a subscriber — are queued
/// behind it, never nested. Observe with ``states`` (current value first, then changes,
/// coalesced for slow consumers), ``states(of:)`` (a selection without repeats) or
/// ``actions`` (every reduced action, in order).
///
/// ```swift
/// let store = Store(initialState: 0) { (count: inout Int, action: Int) in count += action }
/// store.send(2)
/// await store.dispatch(3)
/// print(store.currentState) // 5
/// ```
public final actor Store<State: Sendable, Action: Sendable> {
    @usableFromInline var state: State
    @usableFromInline let reducer: @Sendable (inout State, Action) -> Void
    @usableFromInline let inbox: StoreInbox<Action>
    @usableFromInline let stateValue: CurrentValue<State>
    @usableFromInline let fanout: ActionFanout<Action>
    @usableFromInline let middleware: [Middleware<State, Action>]
    @usableFromInline let runners: [EffectRunner<Action>]
    @usableFromInline let hasMiddleware: Bool
    @usableFromInline let counters = StoreCounters()

    /// Creates a store whose reducer changes the state in place.
    ///
    /// - Parameters:
    ///   - initialState: The state before any action.
    ///   - reducer: Applies one action; runs on the store, one action at a time. Keep it pure
    ///     and fast: side effects belong in middleware.
    ///   - middleware: Reactions to reduced actions, each in a task of its own. Default: none.
    ///   - options: Inbox capacity and error handling. Default: ``StoreOptions/init(inboxCapacity:onMiddlewareError:)``.
    @inlinable
    public init(
        initialState: State,
        reducer: @escaping @Sendable (inout State, Action) -> Void,
        middleware: [Middleware<State, Action>] = [],
        options: StoreOptions = StoreOptions()
    ) {
        self.init(initialState: initialState, reducer: reducer, middleware: middleware, options: options,
                  firstSequence: 1)
        startDrainer()
    }

    /// Creates a store from a pure reducer that returns the next state.
    @inlinable
    public init(
        initialState: State,
        reducer: @escaping @Sendable (State, Action) -> State,
        middleware: [Middleware<State, Action>] = [],
        options: StoreOptions = StoreOptions()
    ) {
        self.init(initialState: initialState, reducer: { state, action in state = reducer(state, action) },
                  middleware: middleware, options: options)
    }

    /// The designated initializer: a store whose first accepted action gets the sequence number
    /// `firstSequence`. The caller starts the drainer with ``startDrainer(into:preferring:)``,
    /// giving it the store's ``BatchSink``.
    @usableFromInline
    package init(
        initialState: State,
        reducer: @escaping @Sendable (inout State, Action) -> Void,
        middleware: [Middleware<State, Action>],
        options: StoreOptions,
        firstSequence: UInt64
    ) {
        self.state = initialState
        self.reducer = reducer
        self.inbox = StoreInbox(capacity: options.inboxCapacity, firstSequence: firstSequence)
        self.stateValue = CurrentValue(initialState)
        self.hasMiddleware = !middleware.isEmpty
        self.fanout = ActionFanout(log: options.log)
        self.middleware = middleware
        // The effect runners hold the inbox, not the store, so a store nobody references is
        // freed; its deinit closes them, which cancels the effects in flight.
        let inbox = self.inbox
        let counters = self.counters
        self.runners = middleware.map {
            EffectRunner(name: $0.name, capacity: $0.bufferSize, overflow: $0.overflow, inbox: inbox,
                         counters: counters, onError: options.onMiddlewareError, log: options.log)
        }
    }

    /// Starts the one task that reduces, handing its batches to `sink` (see ``BatchSink``:
    /// stamped before reducing, committed after, delivered to it once durable and published),
    /// on `executor` when one is given (the bus passes its journal writer's thread, so a batch is
    /// reduced and written without waking another thread), else on the shared pool. The task
    /// keeps the sink for the store's life. Call it once.
    ///
    /// Generic over the sink rather than taking it as an existential: inlinable, like `drain`,
    /// the reducing loop is specialized for the caller's state, action and sink types together
    /// (an existential opened in here would leave the whole loop unspecialized).
    @inlinable
    package nonisolated func startDrainer<Sink: BatchSink<State, Action>>(
        into sink: Sink, preferring executor: (any TaskExecutor)? = nil
    ) {
        // The drainer holds the store only while it reduces, so a store nobody references is
        // freed; its deinit closes the inbox, which ends the drainer.
        Task(executorPreference: executor) { [weak self, inbox] in
            while await inbox.waitForWork() {
                guard let store = self else { return }
                await store.drain(into: sink)
            }
            await self?.finishStreams()
        }
    }

    /// Starts the reducing task of a store whose batches go nowhere beyond it: each is
    /// published as soon as it is reduced (see ``startDrainer(into:preferring:)``).
    @inlinable
    package nonisolated func startDrainer(preferring executor: (any TaskExecutor)? = nil) {
        startDrainer(into: NoBatchSink(), preferring: executor)
    }

    deinit {
        inbox.close()
        for runner in runners { runner.close() }
        fanout.finish()
        stateValue.finish()
    }

    // MARK: Sending

    /// Enqueues `action` without waiting. Returns `false`, dropping the action, when the inbox
    /// is full or the store is closed.
    @inlinable @discardableResult
    public nonisolated func send(_ action: Action) -> Bool {
        switch inbox.append(action) {
        case .accepted(let wake):
            wake?.resume(returning: true)
            return true
        case .parked, .refused:
            return false
        }
    }

    /// Enqueues a run of actions in order without waiting, under one lock of the inbox and with
    /// one wake-up of the reducer, for a sender that receives many at once (a network read, the
    /// control socket's turn). Takes them from the first, as many as there is room for, and
    /// returns how many it took; `rest` says what becomes of the others (see ``BatchRest``).
    /// Takes none while other senders wait for room or the store is closed; a closed store
    /// reports every action of a `.wait` batch as ``DispatchOutcome/stopping``.
    @discardableResult
    package nonisolated func send(contentsOf actions: some Collection<Action>, rest: BatchRest = .handBack) -> Int {
        // A waiting batch is one sender's run of a turn: one path admits, parks and reports both.
        if case .wait(let report) = rest { return send(Array(actions), runs: [DispatchRun(end: actions.count, report: report)]) }
        guard let (taken, wake) = inbox.append(contentsOf: actions) else { return 0 }
        wake?.resume(returning: true)
        return taken
    }

    /// Enqueues the actions of many senders that do not wait in order, under one lock of the
    /// inbox and with one wake-up of the reducer (the control socket's loop turn, every
    /// connection's dispatches): `actions` in runs, each ending at its ``DispatchRun/end`` and
    /// reported to its own ``DispatchRun/report`` as ``send(contentsOf:rest:)`` with
    /// ``BatchRest/wait(report:)`` reports one run. Returns how many went into the inbox at
    /// once; the others wait for room, in order; a closed store reports every action as
    /// ``DispatchOutcome/stopping``.
    @discardableResult
    package nonisolated func send(_ actions: [Action], runs: [DispatchRun]) -> Int {
        var entries: [StoreInbox<Action>.Entry] = []
        entries.reserveCapacity(actions.count)
        var start = 0
        for run in runs {
            let completion = StoreCompletion.outcome(run.report)
            for index in start..<run.end { entries.append(.init(action: actions[index], completion: completion)) }
            start = run.end
        }
        return send(moving: &entries)
    }

    /// Enqueues inbox entries of many senders that do not wait, each with its completion, in
    /// order, as ``send(_:runs:)`` does, and leaves `entries` empty with its buffer kept for
    /// the caller's next turn: the control socket gathers a turn's dispatches as entries, so
    /// they go into the inbox without a copy.
    @discardableResult
    package nonisolated func send(moving entries: inout [StoreInbox<Action>.Entry]) -> Int {
        guard let (taken, wake) = inbox.append(moving: &entries) else {
            for entry in entries { entry.completion?.refused() }
            entries.removeAll(keepingCapacity: true)
            return 0
        }
        wake?.resume(returning: true)
        return taken
    }

    /// Enqueues `action`, waiting for room in the inbox, without waiting for it to be reduced.
    /// Returns `false` when the store is closed or the task was cancelled while waiting.
    @discardableResult
    public nonisolated func enqueue(_ action: Action) async -> Bool {
        let inside = fanout.enterStore()
        defer { fanout.leaveStore(inside) }
        return await inbox.enqueue(action)
    }

    /// Enqueues `action`, waiting for room, and returns once it has been reduced and published
    /// to subscribers. Returns without the action when the store is closed or the task is
    /// cancelled while waiting for room.
    public nonisolated func dispatch(_ action: Action) async {
        let inbox = self.inbox
        // A subscriber's task dispatching in reaction to an action: the drainer must not wait
        // for that subscriber's room meanwhile, or each would wait for the other.
        let inside = fanout.enterStore()
        let id = inbox.makeWaiterID()
        defer {
            inbox.forgetWaiter(id)
            fanout.leaveStore(inside)
        }
        await withTaskCancellationHandler {
            await withUnsafeContinuation { (reduced: UnsafeContinuation<Void, Never>) in
                switch inbox.submit(.init(action: action, completion: .delivered(reduced)), waiterID: id, admitted: nil) {
                case .accepted(let wake):
                    wake?.resume(returning: true)
                case .parked:
                    break
                case .refused:
                    reduced.resume()
                }
            }
        } onCancel: {
            inbox.cancelWaiter(id)
        }
    }

    /// Enqueues `action` without a task and calls `completion` once: with its sequence number as
    /// soon as it is reduced, durable (with a sink that commits) and its state published — before
    /// `actions` subscribers get it —, with ``DispatchOutcome/stopping`` when the store is closed
    /// and did not take it, or ``DispatchOutcome/journalFailed(_:)`` when its batch could not be
    /// made durable. Returns `false` when the inbox is full and the action waits, in order, for
    /// room (or was refused), so that a caller can hold its later actions back.
    @discardableResult
    package nonisolated func submit(_ action: Action, completion: @escaping @Sendable (DispatchOutcome) -> Void) -> Bool {
        // Waiter id 0 is never cancelled: nothing here can be, the completion always comes.
        switch inbox.submit(.init(action: action, completion: .outcome(completion)), waiterID: 0, admitted: nil) {
        case .accepted(let wake):
            wake?.resume(returning: true)
            return true
        case .parked:
            return false
        case .refused:
            completion(.stopping)
            return false
        }
    }

    /// Stops taking actions: later sends are refused and waiting senders released; actions
    /// already queued are still reduced, then every subscription ends.
    public nonisolated func close() {
        inbox.close()
    }

    // MARK: Observing

    /// The state as of the last reduced batch, readable from any task without waiting.
    public nonisolated var currentState: State { stateValue.value }

    /// The current state first, then each new state. A consumer slower than the store sees
    /// the latest state, never a backlog. Ends when the store is closed or freed.
    public nonisolated var states: Broadcast<State>.Subscription {
        stateValue.subscribe()
    }

    /// The selected part of the state, first its current value, then each change (repeats
    /// are dropped). Coalesces for slow consumers like ``states``. Each iterator of the result
    /// is a subscription of its own, made when the iterator is.
    public nonisolated func states<Value: Equatable & Sendable>(
        of selector: @escaping @Sendable (State) -> Value
    ) -> SelectedStates<State, Value> {
        SelectedStates(source: stateValue, selector: selector)
    }

    /// The state at `keyPath`, first its current value, then each change (repeats dropped).
    public nonisolated func states<Value: Equatable & Sendable>(
        of keyPath: KeyPath<State, Value> & Sendable
    ) -> SelectedStates<State, Value> {
        states(of: { $0[keyPath: keyPath] })
    }

    /// Every reduced action, in reduction order, from now on: the subscription is registered
    /// when this returns, so nothing sent afterwards is missed.
    ///
    /// - Parameters:
    ///   - name: Names the subscriber in log lines and ``StoreStatistics/subscribers``.
    ///     Default: the file and line of the call.
    ///   - bufferSize: Actions it may fall behind by before `overflow` applies. Default 1024.
    ///   - overflow: The default, ``OverflowPolicy/suspendProducer``, loses nothing: the store
    ///     waits for this subscriber (logged once per episode, counted in its `stalls`), except
    ///     while the subscriber's own task is inside ``dispatch(_:)`` or ``enqueue(_:)`` of this
    ///     store — reacting to an action by dispatching never deadlocks. `.dropOldest`,
    ///     `.dropNewest` and `.latest` never hold the store up; drops are counted and logged once
    ///     per episode.
    public nonisolated func actions(
        name: String? = nil,
        bufferSize: Int = 1024,
        overflow: OverflowPolicy = .suspendProducer,
        fileID: String = #fileID,
        line: Int = #line
    ) -> StoreActions<Action> {
        fanout.subscribe(name: name ?? "\(fileID):\(line)", bufferSize: bufferSize, overflow: overflow)
    }

    /// Every reduced action, in order, from now on, losing none (see
    /// ``actions(name:bufferSize:overflow:fileID:line:)``); named `actions` in log lines.
    public nonisolated var actions: StoreActions<Action> { actions(name: "actions") }

    /// Counters of what the store did so far.
    public nonisolated var statistics: StoreStatistics {
        let counts = counters.snapshot
        return StoreStatistics(
            reduced: counts.reduced,
            rejected: inbox.rejected,
            queued: inbox.count,
            middlewareDrops: counts.middlewareDrops,
            middlewareFailures: counts.middlewareFailures,
            effectsStarted: counts.effectsStarted,
            effectsInFlight: Int(counts.effectsStarted &- counts.effectsFinished),
            effectsCancelled: counts.effectsCancelled,
            effectsIgnored: counts.effectsIgnored,
            effectOutputsDiscarded: counts.effectOutputsDiscarded,
            subscribers: fanout.statistics
        )
    }

    /// The sequence number the next accepted action gets.
    package nonisolated var nextSequence: UInt64 { inbox.nextSequence }

    /// Whether no action is queued or being reduced: the reducing task waits for work (for
    /// TestStore, which must know an action cannot still cancel an effect).
    package nonisolated var isIdle: Bool { inbox.drainerWaits }
}

/// What a batch ``Store/send(contentsOf:rest:)`` does with the actions that do not fit in the
/// inbox at once.
package enum BatchRest: Sendable {
    /// They are handed back: the caller sends them again, or waits for room with
    /// ``Store/dispatch(_:)`` (the NATS bridge, which may wait).
    case handBack
    /// They wait for room in order, behind the others and ahead of later senders, without a
    /// task (the control socket, whose thread never waits); `report` is called once for every
    /// action of the batch, as ``Store/submit(_:completion:)`` calls its completion.
    case wait(report: @Sendable (DispatchOutcome) -> Void)
}

/// One sender's run of actions in a ``Store/send(_:runs:)``: the actions before `end` (and
/// after the run before) are its, and each is reported to `report`.
package struct DispatchRun: Sendable {
    /// Where the run ends in the actions, exclusive.
    package var end: Int
    /// Told what became of each action of the run, once each.
    package let report: @Sendable (DispatchOutcome) -> Void
}

/// The store's counters, readable from any task.
@usableFromInline
final class StoreCounters: Sendable {
    @usableFromInline
    struct Counts: Sendable {
        @inlinable init() {}
        @usableFromInline var reduced: UInt64 = 0
        @usableFromInline var middlewareFailures: UInt64 = 0
        @usableFromInline var middlewareDrops = 0
        @usableFromInline var effectsStarted: UInt64 = 0
        @usableFromInline var effectsCancelled: UInt64 = 0
        @usableFromInline var effectsFinished: UInt64 = 0
        @usableFromInline var effectsIgnored: UInt64 = 0
        @usableFromInline var effectOutputsDiscarded: UInt64 = 0
    }

    @usableFromInline let counts = Mutex(Counts())

    @usableFromInline init() {}

    var snapshot: Counts { counts.withLock { $0 } }

    @inlinable
    func countReduced(_ count: Int) {
        counts.withLock { $0.reduced &+= UInt64(count) }
    }

    func countMiddlewareFailure() { counts.withLock { $0.middlewareFailures &+= 1 } }
    func countMiddlewareDrop() { counts.withLock { $0.middlewareDrops &+= 1 } }
    func countEffectStarted() { counts.withLock { $0.effectsStarted &+= 1 } }
    func countEffectFinished() { counts.withLock { $0.effectsFinished &+= 1 } }
    func countEffectCancelled(_ count: Int = 1) { counts.withLock { $0.effectsCancelled &+= UInt64(count) } }
    func countEffectsIgnored() { counts.withLock { $0.effectsIgnored &+= 1 } }
    @usableFromInline
    func countEffectOutputDiscarded() { counts.withLock { $0.effectOutputsDiscarded &+= 1 } }
}
