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
    @usableFromInline let actionStream = Broadcast<Action>()
    @usableFromInline let middlewareFeed = Broadcast<(State, Action)>()
    @usableFromInline let hasMiddleware: Bool
    @usableFromInline let afterReduce: (@Sendable ([Action]) async -> Bool)?
    @usableFromInline let beforeDelivery: (@Sendable ([Action]) async -> Void)?
    @usableFromInline let counters = StoreCounters()
    private let middlewareTasks: [Task<Void, Never>]
    private let middlewareSubscriptions: [Broadcast<(State, Action)>.Subscription]


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
                  firstSequence: 1, stamp: nil, afterReduce: nil, beforeDelivery: nil)
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

    /// The designated initializer. `stamp` runs under the inbox lock as an action is accepted,
    /// with its sequence number, so sequence order is reduction order; `afterReduce` sees each
    /// reduced batch before anyone is told about it (the journal makes it durable there);
    /// `beforeDelivery` sees it after the new state is published, before `actions` subscribers.
    /// The caller starts the drainer with ``startDrainer()``.
    @usableFromInline
    init(
        initialState: State,
        reducer: @escaping @Sendable (inout State, Action) -> Void,
        middleware: [Middleware<State, Action>],
        options: StoreOptions,
        firstSequence: UInt64,
        stamp: (@Sendable (inout Action, UInt64) -> Void)?,
        afterReduce: (@Sendable ([Action]) async -> Bool)?,
        beforeDelivery: (@Sendable ([Action]) async -> Void)?
    ) {
        self.state = initialState
        self.reducer = reducer
        self.inbox = StoreInbox(capacity: options.inboxCapacity, firstSequence: firstSequence, stamp: stamp)
        self.stateValue = CurrentValue(initialState)
        self.hasMiddleware = !middleware.isEmpty
        self.afterReduce = afterReduce
        self.beforeDelivery = beforeDelivery
        let feed = middlewareFeed
        let inbox = self.inbox
        let counters = self.counters
        let onError = options.onMiddlewareError
        let subscriptions = middleware.map { feed.subscribe(bufferSize: $0.bufferSize, overflow: .dropOldest) }
        self.middlewareSubscriptions = subscriptions
        // The middleware tasks hold the inbox, not the store, so a store nobody references is
        // freed; its deinit finishes the feed, which ends these tasks.
        self.middlewareTasks = zip(middleware, subscriptions).map { middleware, subscription in
            Task {
                let emit: @Sendable (Action) async -> Void = { action in
                    _ = await Self.enqueue(action, into: inbox)
                }
                for await (state, action) in subscription {
                    do {
                        try await middleware.run(state, action, emit)
                    } catch {
                        counters.countMiddlewareFailure()
                        onError(error)
                    }
                }
            }
        }
    }

    /// Starts the one task that reduces. Inlinable, like `drain`, so the reducing loop of a
    /// client's store is specialized for its state and action types.
    @inlinable
    nonisolated func startDrainer() {
        // The drainer holds the store only while it reduces, so a store nobody references is
        // freed; its deinit closes the inbox, which ends the drainer.
        Task { [weak self, inbox] in
            while await inbox.waitForWork() {
                guard let store = self else { return }
                await store.drain()
            }
            await self?.finishStreams()
        }
    }

    deinit {
        inbox.close()
        middlewareFeed.finish()
        actionStream.finish()
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

    /// Enqueues `action`, waiting for room in the inbox, without waiting for it to be reduced.
    /// Returns `false` when the store is closed or the task was cancelled while waiting.
    @discardableResult
    public nonisolated func enqueue(_ action: Action) async -> Bool {
        await Self.enqueue(action, into: inbox)
    }

    /// Enqueues `action`, waiting for room, and returns once it has been reduced and published
    /// to subscribers. Returns without the action when the store is closed or the task is
    /// cancelled while waiting for room.
    public nonisolated func dispatch(_ action: Action) async {
        let inbox = self.inbox
        let id = inbox.makeWaiterID()
        defer { inbox.forgetWaiter(id) }
        await withTaskCancellationHandler {
            await withUnsafeContinuation { (reduced: UnsafeContinuation<Void, Never>) in
                switch inbox.submit(.init(action: action, reduced: reduced), waiterID: id, admitted: nil) {
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
    /// are dropped). Coalesces for slow consumers like ``states``.
    public nonisolated func states<Value: Equatable & Sendable>(
        of selector: @escaping @Sendable (State) -> Value
    ) -> SelectedStates<State, Value> {
        SelectedStates(base: stateValue.subscribe(), selector: selector)
    }

    /// The state at `keyPath`, first its current value, then each change (repeats dropped).
    public nonisolated func states<Value: Equatable & Sendable>(
        of keyPath: KeyPath<State, Value> & Sendable
    ) -> SelectedStates<State, Value> {
        states(of: { $0[keyPath: keyPath] })
    }

    /// Every reduced action, in reduction order, from now on. The subscription buffers
    /// `bufferSize` actions (default 1024) and applies `overflow` when its consumer falls
    /// behind; the default, ``OverflowPolicy/suspendProducer``, loses nothing but makes the
    /// store wait for this consumer.
    public nonisolated func actions(
        bufferSize: Int = 1024,
        overflow: OverflowPolicy = .suspendProducer
    ) -> Broadcast<Action>.Subscription {
        actionStream.subscribe(bufferSize: bufferSize, overflow: overflow)
    }

    /// Every reduced action, in order, from now on, losing none (see ``actions(bufferSize:overflow:)``).
    public nonisolated var actions: Broadcast<Action>.Subscription { actions() }

    /// Counters of what the store did so far.
    public nonisolated var statistics: StoreStatistics {
        let counts = counters.snapshot
        return StoreStatistics(
            reduced: counts.reduced,
            rejected: inbox.rejected,
            queued: inbox.count,
            middlewareDrops: middlewareSubscriptions.reduce(0) { $0 + $1.droppedCount },
            middlewareFailures: counts.middlewareFailures
        )
    }

    /// The sequence number the next accepted action gets.
    nonisolated var nextSequence: UInt64 { inbox.nextSequence }

    // MARK: Reducing

    private static func enqueue(_ action: Action, into inbox: StoreInbox<Action>) async -> Bool {
        let id = inbox.makeWaiterID()
        defer { inbox.forgetWaiter(id) }
        return await withTaskCancellationHandler {
            await withUnsafeContinuation { (admitted: UnsafeContinuation<Bool, Never>) in
                switch inbox.submit(.init(action: action, reduced: nil), waiterID: id, admitted: admitted) {
                case .accepted(let wake):
                    wake?.resume(returning: true)
                    admitted.resume(returning: true)
                case .parked:
                    break
                case .refused:
                    admitted.resume(returning: false)
                }
            }
        } onCancel: {
            inbox.cancelWaiter(id)
        }
    }

    @inlinable
    func drain() async {
        var spare: [StoreInbox<Action>.Entry] = []
        var actions: [Action] = []
        while let batch = inbox.takeBatch(spare: &spare) {
            actions.removeAll(keepingCapacity: true)
            actions.reserveCapacity(batch.count)
            for entry in batch {
                reducer(&state, entry.action)
                actions.append(entry.action)
                if hasMiddleware { middlewareFeed.send((state, entry.action)) }
            }
            counters.countReduced(batch.count)
            // A batch the hook refuses (the journal could not write it) is never published:
            // nobody sees an action that is not durable. Its dispatchers still return.
            if let afterReduce, await !afterReduce(actions) {
                for entry in batch { entry.reduced?.resume() }
                spare = batch
                continue
            }
            stateValue.send(state)
            if let beforeDelivery { await beforeDelivery(actions) }
            await actionStream.deliver(contentsOf: actions)
            for entry in batch { entry.reduced?.resume() }
            spare = batch
        }
    }

    @usableFromInline
    func finishStreams() {
        middlewareFeed.finish()
        actionStream.finish()
        stateValue.finish()
    }
}

/// The store's counters, readable from any task.
@usableFromInline
final class StoreCounters: Sendable {
    @usableFromInline let counts = Mutex((reduced: UInt64(0), middlewareFailures: UInt64(0)))

    @usableFromInline init() {}

    var snapshot: (reduced: UInt64, middlewareFailures: UInt64) { counts.withLock { $0 } }

    @inlinable
    func countReduced(_ count: Int) {
        counts.withLock { $0.reduced &+= UInt64(count) }
    }

    func countMiddlewareFailure() {
        counts.withLock { $0.middlewareFailures &+= 1 }
    }
}
