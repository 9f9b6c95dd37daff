import SwitchyardStreams

/// Reacts to reduced actions with new actions, off the reducer's path.
///
/// A middleware sees each action with the state right after reducing it and returns a
/// sequence of actions; the store dispatches each emitted action in turn (queued, never
/// nested). Each middleware runs in a task of its own and works through its actions one at a
/// time, so a slow or failing middleware holds up neither the reducer nor other middleware.
/// It buffers up to `bufferSize` actions; when it falls further behind, the oldest are dropped
/// and counted in ``StoreStatistics/middlewareDrops``.
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
    let bufferSize: Int
    let run: @Sendable (State, Action, _ emit: @escaping @Sendable (Action) async -> Void) async throws -> Void

    /// A middleware whose sequence never fails. `bufferSize` defaults to 1024.
    public init<Effects: AsyncSequence>(
        bufferSize: Int = 1024,
        _ body: @escaping @Sendable (State, Action) -> Effects
    ) where Effects.Element == Action, Effects.Failure == Never, Effects: Sendable {
        self.bufferSize = bufferSize
        self.run = { state, action, emit in
            for await emitted in body(state, action) { await emit(emitted) }
        }
    }

    /// A middleware whose sequence may throw: actions emitted before the error are kept, the
    /// error goes to ``StoreOptions/onMiddlewareError``, and the middleware carries on with
    /// the next action. `bufferSize` defaults to 1024.
    public init<Effects: AsyncSequence>(
        bufferSize: Int = 1024,
        throwing body: @escaping @Sendable (State, Action) -> Effects
    ) where Effects.Element == Action, Effects: Sendable {
        self.bufferSize = bufferSize
        self.run = { state, action, emit in
            for try await emitted in body(state, action) { await emit(emitted) }
        }
    }

    /// A middleware written as an async closure that emits actions through `emit`; a thrown
    /// error is handled as for the throwing form. `bufferSize` defaults to 1024.
    public init(
        bufferSize: Int = 1024,
        effect: @escaping @Sendable (State, Action, _ emit: @escaping @Sendable (Action) async -> Void) async throws -> Void
    ) {
        self.bufferSize = bufferSize
        self.run = effect
    }
}
