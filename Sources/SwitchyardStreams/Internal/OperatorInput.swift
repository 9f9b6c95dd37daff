/// One input of a many-input operator (`merge`, `combineLatest`, `zip`) with its sequence
/// type erased, so inputs of different types fit in one array. The closures are made where the
/// input's type is known, so they run specialized code.
@usableFromInline struct OperatorInput<Element: Sendable, Failure: Error>: Sendable {
    /// Iterates one iterator of the input on the calling task, handing each element to
    /// `onElement` (which returns `false` to stop), and reports how it ended.
    @usableFromInline typealias Run = (_ onElement: (Element) async -> Bool) async -> Result<Void, Failure>

    /// Makes an iterator of the input (subscribing to it) and returns how to run it.
    @usableFromInline let subscribe: @Sendable () -> Run

    @inlinable init<Base: AsyncSequence & Sendable>(_ base: Base) where Base.Element == Element, Base.Failure == Failure {
        subscribe = {
            var iterator = base.makeAsyncIterator()
            return { onElement in await drain(&iterator, onElement) }
        }
    }
}

extension OperatorInput where Element == any Sendable {
    /// An input whose elements are erased to `any Sendable`, for the tuple-building operators.
    @inlinable init<Base: AsyncSequence & Sendable>(erasing base: Base) where Base.Element: Sendable, Base.Failure == Failure {
        subscribe = {
            var iterator = base.makeAsyncIterator()
            return { onElement in await drain(&iterator) { await onElement($0) } }
        }
    }
}
