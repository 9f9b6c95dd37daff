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
    /// `policy` (default `.queue`: one action's sequence after another, in order).
    public init<Effects: AsyncSequence>(
        name: String? = nil,
        bufferSize: Int = 1024,
        overflow: OverflowPolicy = .suspendProducer,
        policy: WorkPolicy = .queue,
        fileID: String = #fileID,
        line: Int = #line,
        _ body: @escaping @Sendable (State, Action) -> Effects
    ) where Effects.Element == Action, Effects.Failure == Never, Effects: Sendable {
        self.init(name: name, bufferSize: bufferSize, overflow: overflow, effects: { state, action in
            .sequence(body(state, action), policy: policy)
        }, fileID: fileID, line: line)
    }

    /// A middleware whose sequence may throw: actions emitted before the error are kept, the
    /// error goes to ``StoreOptions/onMiddlewareError``, and later actions get their effects.
    public init<Effects: AsyncSequence>(
        name: String? = nil,
        bufferSize: Int = 1024,
        overflow: OverflowPolicy = .suspendProducer,
        policy: WorkPolicy = .queue,
        fileID: String = #fileID,
        line: Int = #line,
        throwing body: @escaping @Sendable (State, Action) -> Effects
    ) where Effects.Element == Action, Effects: Sendable {
        self.init(name: name, bufferSize: bufferSize, overflow: overflow, effects: { state, action in
            .sequence(body(state, action), policy: policy)
        }, fileID: fileID, line: line)
    }

    /// A middleware written as an async closure that emits actions through `emit`, run as one
    /// effect per action under `policy` (default `.queue`); a thrown error is handled as for
    /// the throwing form.
    public init(
        name: String? = nil,
        bufferSize: Int = 1024,
        overflow: OverflowPolicy = .suspendProducer,
        policy: WorkPolicy = .queue,
        fileID: String = #fileID,
        line: Int = #line,
        effect: @escaping @Sendable (State, Action, _ emit: @escaping @Sendable (Action) async -> Void) async throws -> Void
    ) {
        self.init(name: name, bufferSize: bufferSize, overflow: overflow, effects: { state, action in
            .run(policy: policy) { emit in try await effect(state, action, emit) }
        }, fileID: fileID, line: line)
    }
}
