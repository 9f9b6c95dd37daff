/// One input of a many-input operator (`combineLatest`, `zip`) with its element type erased,
/// so inputs of different element types fit in one array.
struct OperatorInput<Failure: Error>: Sendable {
    /// Iterates one iterator of the input on the calling task, handing each element to
    /// `onElement` (which returns `false` to stop), and reports how it ended.
    typealias Run = (_ onElement: (any Sendable) async -> Bool) async -> Result<Void, Failure>

    /// Makes an iterator of the input (subscribing to it) and returns how to run it.
    let subscribe: @Sendable () -> Run

    init<Base: AsyncSequence & Sendable>(_ base: Base) where Base.Element: Sendable, Base.Failure == Failure {
        subscribe = {
            var iterator = base.makeAsyncIterator()
            return { onElement in await drain(&iterator) { await onElement($0) } }
        }
    }
}
