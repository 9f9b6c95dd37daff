/// The pure state of `withLatestFrom`: the latest element of the other sequence.
///
/// Only the primary sequence drives emissions and its end; the other sequence only refreshes
/// the value paired with them.
@usableFromInline struct WithLatestFromStateMachine<Other: Sendable>: Sendable {
    @usableFromInline var latest: Other?

    @inlinable init() {}

    @inlinable mutating func otherReceived(_ element: Other) {
        latest = element
    }
}
