/// The pure state of `withLatestFrom`: the latest element of the other sequence.
///
/// Only the primary sequence drives emissions and its end; the other sequence only refreshes
/// the value paired with them.
struct WithLatestFromStateMachine<Other: Sendable>: Sendable {
    private(set) var latest: Other?

    mutating func otherReceived(_ element: Other) {
        latest = element
    }
}
