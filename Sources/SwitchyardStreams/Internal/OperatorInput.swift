/// One input of a many-input operator (`combineLatest`, `zip`) with its element type erased,
/// so inputs of different element types fit in one array.
struct OperatorInput<Failure: Error>: Sendable {
    /// Iterates the input on the calling task, handing each element to `onElement` (which
    /// returns `false` to stop), and reports how it ended.
    let run: @Sendable (_ onElement: (any Sendable) async -> Bool) async -> Result<Void, Failure>

    init<Base: AsyncSequence & Sendable>(_ base: Base) where Base.Element: Sendable, Base.Failure == Failure {
        run = { onElement in await drain(base) { await onElement($0) } }
    }
}
