import SwitchyardStreams

/// A selected part of a store's state: the current value first, then each change, with
/// repeats dropped. Returned by ``Store/states(of:)``.
///
/// Each iterator is a subscription of its own, made when the iterator is made (not when the
/// sequence is), so the sequence can be iterated any number of times, also at once.
public struct SelectedStates<State: Sendable, Value: Equatable & Sendable>: AsyncSequence, Sendable {
    public typealias Element = Value
    public typealias Failure = Never

    let source: CurrentValue<State>
    let selector: @Sendable (State) -> Value

    /// Subscribes to the store's states and returns the iterator.
    public func makeAsyncIterator() -> Iterator {
        Iterator(base: source.subscribe().makeAsyncIterator(), selector: selector)
    }

    /// Yields selected values that differ from the previous one.
    public struct Iterator: AsyncIteratorProtocol {
        var base: Broadcast<State>.Subscription.AsyncIterator
        let selector: @Sendable (State) -> Value
        var last: Value?

        /// The next distinct selected value; `nil` once the store ends or the task is cancelled.
        public mutating func next(isolation actor: isolated (any Actor)?) async -> Value? {
            while let state = await base.next(isolation: actor) {
                let value = selector(state)
                if value != last {
                    last = value
                    return value
                }
            }
            return nil
        }

        /// The next distinct selected value; `nil` once the store ends or the task is cancelled.
        public mutating func next() async -> Value? {
            await next(isolation: nil)
        }
    }
}
