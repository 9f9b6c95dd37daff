/// The iterator of every operator that owns tasks (`merge`, `combineLatest`, `zip`,
/// `withLatestFrom`, `debounce`, `throttle`, `timeout`, `flatMap`, `flatMapLatest`): it takes
/// what the operator has produced, in order. `Operator` is the sequence that made it, so each
/// operator's iterator stays a type of its own; `Element` and `Failure` are the sequence's.
///
/// Releasing the iterator (every copy of it), or cancelling the task waiting in `next`, stops
/// the operator: its tasks are cancelled and its inputs released. Not shareable between tasks.
public struct AsyncOperatorIterator<Operator, Element: Sendable, Failure: Error>: AsyncIteratorProtocol {
    @usableFromInline typealias Take = (isolated (any Actor)?) async throws(Failure) -> Element?

    /// The operator's ``OperatorDriverHandle``, whose release stops the operator.
    @usableFromInline let owner: AnyObject
    /// The driver's `next`, made where the operator's types are known, so it runs specialized.
    @usableFromInline let take: Take

    @inlinable init(owner: AnyObject, take: @escaping Take) {
        self.owner = owner
        self.take = take
    }

    /// The operator's next element; `nil` once it has finished or the task was cancelled.
    /// - Throws: The operator's failure; each operator documents which.
    @inlinable public mutating func next() async throws(Failure) -> Element? {
        try await take(nil)
    }

    /// The operator's next element; `nil` once it has finished or the task was cancelled.
    /// - Throws: The operator's failure; each operator documents which.
    @inlinable public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
        try await take(actor)
    }
}

@available(*, unavailable)
extension AsyncOperatorIterator: Sendable {}

/// An operator run by an ``OperatorDriver`` over the state machine `Machine`.
@usableFromInline protocol DrivenOperator: AsyncSequence where Element: Sendable {
    associatedtype Machine: Sendable
}

extension AsyncOperatorIterator where Operator: DrivenOperator, Operator.Element == Element, Operator.Failure == Failure {
    @usableFromInline typealias Driver = OperatorDriver<Operator.Machine, Element, Failure>

    /// An iterator taking from `driver`, which it stops when released.
    @inlinable init(_ driver: Driver) {
        self.init(owner: OperatorDriverHandle(driver)) { actor async throws(Failure) in
            try await driver.next(isolation: actor)
        }
    }

    /// The driver's handle, typed (for tests that look into the machine).
    @usableFromInline var handle: OperatorDriverHandle<Operator.Machine, Element, Failure> {
        unsafeDowncast(owner, to: OperatorDriverHandle<Operator.Machine, Element, Failure>.self)
    }
}
