import Synchronization

/// Identifies effects for ``Effect/cancel(id:)`` and groups them under one ``WorkPolicy``:
/// any `Hashable & Sendable` value (a string, an enum case, a type).
public struct EffectID: Hashable, Sendable {
    let base: any Hashable & Sendable

    /// Wraps `base`; two ids are equal when their bases are of the same type and equal.
    public init(_ base: some Hashable & Sendable) {
        self.base = base
    }

    init(existential base: any Hashable & Sendable) {
        self.base = base
    }

    public static func == (lhs: EffectID, rhs: EffectID) -> Bool {
        AnyHashable(lhs.base) == AnyHashable(rhs.base)
    }

    public func hash(into hasher: inout Hasher) {
        AnyHashable(base).hash(into: &hasher)
    }
}

/// Whether an effect was cancelled; its emissions carry it, so the store discards an action a
/// cancelled effect emitted if the cancellation came first.
@usableFromInline
package final class EffectToken: Sendable {
    @usableFromInline let cancelled = Atomic<Bool>(false)

    init() {}

    @inlinable
    var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    func cancel() {
        cancelled.store(true, ordering: .releasing)
    }
}

/// What a middleware wants done after an action: work that emits actions, under a policy, and
/// cancellations — the shape of TCA's `Effect` and redux-saga's `takeLatest`/`takeLeading`.
///
/// Effects with the same ``EffectID`` form a group that the policy of each arriving effect
/// governs: ``WorkPolicy/latest`` cancels the group's work in flight (and discards anything it
/// emits afterwards, even if already queued), ``WorkPolicy/leading`` is ignored while the group
/// is busy, ``WorkPolicy/queue`` waits for the group to be idle, ``WorkPolicy/every(maxConcurrent:)``
/// runs up to that many at once. Effects without an id share their middleware's default group.
///
/// ```swift
/// Middleware<Search, SearchAction>(effects: { state, action in
///     switch action {
///     case .query(let text):
///         return .run(id: "search", policy: .latest) { emit in await emit(.results(try await find(text))) }
///     case .clear:
///         return .cancel(id: "search")
///     default:
///         return .none
///     }
/// })
/// ```
public struct Effect<Action: Sendable>: Sendable {
    /// Sends an action to the store (queued like any other; see ``Store/enqueue(_:)``).
    public typealias Emit = @Sendable (Action) async -> Void

    enum Item: Sendable {
        case run(id: EffectID?, policy: WorkPolicy, body: @Sendable (_ emit: @escaping Emit) async throws -> Void)
        case cancel(EffectID)
    }

    let items: [Item]

    /// No work.
    public static var none: Effect { Effect(items: []) }

    /// Runs `operation` in a task of its own under `policy` (default ``WorkPolicy/queue``) within
    /// the group `id` (default: the middleware's own group). An error it throws goes to
    /// ``StoreOptions/onMiddlewareError`` and is counted; cancellation is not an error.
    public static func run(
        id: (any Hashable & Sendable)? = nil,
        policy: WorkPolicy = .queue,
        operation: @escaping @Sendable (_ emit: @escaping Emit) async throws -> Void
    ) -> Effect {
        Effect(items: [.run(id: id.map { EffectID(existential: $0) }, policy: policy, body: operation)])
    }

    /// Emits every action of `actions`, under `policy` within group `id` like ``run(id:policy:operation:)``.
    public static func sequence<Actions: AsyncSequence & Sendable>(
        _ actions: Actions, id: (any Hashable & Sendable)? = nil, policy: WorkPolicy = .queue
    ) -> Effect where Actions.Element == Action {
        run(id: id, policy: policy) { emit in
            for try await action in actions { await emit(action) }
        }
    }

    /// Emits `action` at once (an effect of its own, not subject to any group's policy).
    public static func send(_ action: Action) -> Effect {
        run(id: EffectID(SendGroup()), policy: .every(maxConcurrent: .max)) { emit in await emit(action) }
    }

    /// Cancels the work in flight and the waiting effects of group `id`; whatever they emit
    /// from now on is discarded.
    public static func cancel(id: some Hashable & Sendable) -> Effect {
        Effect(items: [.cancel(EffectID(id))])
    }

    /// All of `effects`, applied in order.
    public static func merge(_ effects: Effect...) -> Effect {
        Effect(items: effects.flatMap(\.items))
    }

    /// This effect, then `other`.
    public func merge(with other: Effect) -> Effect {
        Effect(items: items + other.items)
    }
}

/// The group of ``Effect/send(_:)``.
private struct SendGroup: Hashable, Sendable {}
