import SwitchyardStreams

/// Reacts to reduced actions with effects: work, run off the reducer's path, that emits new
/// actions.
///
/// The store calls a middleware right after reducing each action, with the new state; the
/// middleware returns an ``Effect`` at once (describing work, not doing it), and the store runs
/// the effect's work in tasks of their own under its ``WorkPolicy`` — `.latest`, `.leading`,
/// `.queue` or `.every(maxConcurrent:)`, per effect and grouped by ``EffectID`` — and cancels
/// effects by id on request. Emitted actions are queued like any other, never nested.
///
/// A middleware decides what to do about an action at once, while the store reduces: an action
/// it starts no work for (``Effect/none``, or `nil` from the `on:` selector) costs nothing and
/// never waits behind another action's work. Only the work it starts is subject to a policy, so
/// `.queue` keeps the order of the work alone.
///
/// Nothing is lost by default: effects that must wait for their group are held, up to
/// `bufferSize` per middleware; beyond that the store stops taking actions from outside
/// (``Store/send(_:)`` returns `false`, ``Store/dispatch(_:)`` waits) until effects catch up.
/// Dropping is a choice: `overflow: .dropOldest`, `.dropNewest` or `.latest` discards waiting
/// effects instead, counted in ``StoreStatistics/middlewareDrops`` and logged once per episode.
///
/// ```swift
/// let logging = Middleware<AppState, AppAction> { state, action in
///     AsyncStream { continuation in
///         if case .load = action { continuation.yield(.loading) }
///         continuation.finish()
///     }
/// }
/// ```
public struct Middleware<State: Sendable, Action: Sendable>: Sendable {
    let name: String
    let bufferSize: Int
    let overflow: OverflowPolicy
    let effects: @Sendable (State, Action) -> Effect<Action>

    /// A middleware that answers each action with an ``Effect`` (work under a policy, a
    /// cancellation, several, or none). `bufferSize` (default 1024) bounds the effects waiting
    /// for their group; `overflow` (default `.suspendProducer`: backpressure, nothing lost)
    /// says what happens beyond it. `name` appears in log lines (default: where it was made).
    public init(
        name: String? = nil,
        bufferSize: Int = 1024,
        overflow: OverflowPolicy = .suspendProducer,
        effects: @escaping @Sendable (State, Action) -> Effect<Action>,
        fileID: String = #fileID,
        line: Int = #line
    ) {
        precondition(bufferSize >= 1, "Middleware: bufferSize must be at least 1, got \(bufferSize)")
        self.name = name ?? "\(fileID):\(line)"
        self.bufferSize = bufferSize
        self.overflow = overflow
        self.effects = effects
    }

    /// A middleware whose sequence never fails, iterated as one effect per action under
    /// `policy` (default ``WorkPolicy/concurrent``: each action's sequence at once, so an empty
    /// one never waits behind a slow one; `.queue` iterates them one after another, in order).
    public init<Effects: AsyncSequence>(
        name: String? = nil,
        bufferSize: Int = 1024,
        overflow: OverflowPolicy = .suspendProducer,
        policy: WorkPolicy = .concurrent,
        fileID: String = #fileID,
        line: Int = #line,
        _ body: @escaping @Sendable (State, Action) -> Effects
    ) where Effects.Element == Action, Effects.Failure == Never, Effects: Sendable {
        // A sequence that never fails is run as one that might: the same effect.
        self.init(name: name, bufferSize: bufferSize, overflow: overflow, policy: policy, fileID: fileID, line: line, throwing: body)
    }

    /// A middleware whose sequence may throw: actions emitted before the error are kept, the
    /// error goes to ``StoreOptions/onMiddlewareError``, and later actions get their effects.
    /// `policy` as for the non-throwing form (default ``WorkPolicy/concurrent``).
    public init<Effects: AsyncSequence>(
        name: String? = nil,
        bufferSize: Int = 1024,
        overflow: OverflowPolicy = .suspendProducer,
        policy: WorkPolicy = .concurrent,
        fileID: String = #fileID,
        line: Int = #line,
        throwing body: @escaping @Sendable (State, Action) -> Effects
    ) where Effects.Element == Action, Effects: Sendable {
        self.init(name: name, bufferSize: bufferSize, overflow: overflow, effects: { state, action in
            .sequence(body(state, action), policy: policy)
        }, fileID: fileID, line: line)
    }

    /// A middleware written as an async closure that emits actions through `emit`, run as one
    /// effect per action under `policy` (default ``WorkPolicy/concurrent``: the closure runs at
    /// once for every action, so one that returns at once never waits behind a slow one); a
    /// thrown error is handled as for the throwing form.
    ///
    /// The closure cannot say which actions it ignores before it runs, so under `.queue`,
    /// `.latest` or `.leading` every action would take its turn (or cancel, or be ignored):
    /// pick the actions with ``init(name:bufferSize:overflow:on:policy:fileID:line:effect:)``
    /// for those.
    public init(
        name: String? = nil,
        bufferSize: Int = 1024,
        overflow: OverflowPolicy = .suspendProducer,
        policy: WorkPolicy = .concurrent,
        fileID: String = #fileID,
        line: Int = #line,
        effect: @escaping @Sendable (State, Action, _ emit: @escaping @Sendable (Action) async -> Void) async throws -> Void
    ) {
        self.init(name: name, bufferSize: bufferSize, overflow: overflow, effects: { state, action in
            .run(policy: policy) { emit in try await effect(state, action, emit) }
        }, fileID: fileID, line: line)
    }

    /// A middleware for the actions `select` picks, as redux-saga's `takeEvery(pattern, worker)`
    /// and `takeLatest` are: `select` runs at once for each action, and an action it returns
    /// `nil` for costs nothing and waits for nothing; for the others, `effect` runs with the
    /// selected value under `policy` (default ``WorkPolicy/concurrent``), so `.queue` orders
    /// only the selected actions' work and `.latest` cancels only when another selected action
    /// arrives. A thrown error is handled as for the throwing form.
    ///
    /// ```swift
    /// Middleware<Places, PlacesAction>(on: { action in
    ///     if case .search(let query) = action { query } else { nil }
    /// }, policy: .queue) { state, query, emit in
    ///     await emit(.loaded(try await lookUp(query)))
    /// }
    /// ```
    public init<Selected: Sendable>(
        name: String? = nil,
        bufferSize: Int = 1024,
        overflow: OverflowPolicy = .suspendProducer,
        on select: @escaping @Sendable (Action) -> Selected?,
        policy: WorkPolicy = .concurrent,
        fileID: String = #fileID,
        line: Int = #line,
        effect: @escaping @Sendable (State, Selected, _ emit: @escaping @Sendable (Action) async -> Void) async throws -> Void
    ) {
        self.init(name: name, bufferSize: bufferSize, overflow: overflow, effects: { state, action in
            guard let selected = select(action) else { return .none }
            return .run(policy: policy) { emit in try await effect(state, selected, emit) }
        }, fileID: fileID, line: line)
    }
}
