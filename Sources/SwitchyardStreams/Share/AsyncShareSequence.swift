extension AsyncSequence where Self: Sendable, Element: Sendable {
    /// Lets several consumers iterate this sequence through one shared iteration of it, so
    /// its work (a network call, a sensor) happens once for all of them.
    ///
    /// Every iterator made from the result, or from a copy of it, is a subscriber.
    ///
    /// - **Emits** to every subscriber each element this sequence produces after the subscriber
    ///   was made (`makeAsyncIterator`), in order. With `replay > 0` a new subscriber first
    ///   gets up to `replay` of the latest elements; with `replay: 0` it sees only what comes
    ///   next.
    /// - **Finishes** every subscriber, after what it has not taken, when this sequence
    ///   finishes; a subscriber made after that gets the replay and the finish at once.
    ///   Cancelling a subscriber's task, or releasing its iterator, ends only that subscriber.
    /// - **Fails** every subscriber with this sequence's failure, in the same way.
    /// - **Buffers** per subscriber, each with its own bound and policy: by default without
    ///   limit, so a slow subscriber never holds back the others or the upstream (its memory
    ///   grows with how far it lags; give it a bound with ``AsyncShareSequence/buffering(_:whenFull:)``
    ///   or here). When a bounded subscriber's buffer is full, its policy decides:
    ///   `.suspendProducer` holds the upstream back until that subscriber takes one (it then
    ///   sets everyone's pace), `.dropOldest` and `.dropNewest` drop for that subscriber only,
    ///   `.latest` keeps only its newest element.
    ///
    /// This sequence is iterated by one task, started by the first `next` of any subscriber
    /// and cancelled when the last subscriber leaves; a subscriber arriving after that starts
    /// a new iteration (with an empty replay buffer).
    ///
    /// ```swift
    /// let welcome = loads.flatMap(maxConcurrent: 1) { _ in await api.welcomeText() }.share()
    /// let shown = welcome.map { "Welcome, \($0)" }     // both consumers, one API call
    /// let logged = welcome.buffering(16, whenFull: .dropOldest).map { "loaded \($0)" }
    /// ```
    ///
    /// - Parameters:
    ///   - replay: How many of the latest elements a new subscriber gets first; defaults to 0.
    ///   - buffer: Elements a subscriber may have waiting; defaults to `Int.max` (unbounded),
    ///     at least 1 (`.latest` always keeps 1).
    ///   - whenFull: What a full subscriber buffer does; defaults to `.suspendProducer`, which
    ///     loses nothing (and with the default unbounded buffer never waits).
    /// - Precondition: `replay` is not negative and `buffer` is at least 1.
    @_disfavoredOverload  // swift-async-algorithms' operator of the same name wins when both are imported
    @inlinable public func share(
        replay: Int = 0,
        buffer: Int = .max,
        whenFull: OverflowPolicy = .suspendProducer
    ) -> AsyncShareSequence<Self> {
        precondition(replay >= 0, "share(replay:) needs a replay count >= 0, got \(replay)")
        precondition(buffer >= 1, "share(buffer:) needs a buffer of at least 1, got \(buffer)")
        return AsyncShareSequence(ShareStorage(base: self, replay: replay), capacity: buffer, policy: whenFull)
    }
}

/// One shared iteration of a base sequence for several subscribers. Made by
/// `share(replay:buffer:whenFull:)`; copies share the same iteration, and each copy carries
/// the buffer bound and policy its subscribers get.
public struct AsyncShareSequence<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable where Base.Element: Sendable {
    /// The base's element type.
    public typealias Element = Base.Element
    /// The base's failure type, unchanged.
    public typealias Failure = Base.Failure

    @usableFromInline let storage: ShareStorage<Base>
    @usableFromInline let capacity: Int
    @usableFromInline let policy: OverflowPolicy

    @inlinable init(_ storage: ShareStorage<Base>, capacity: Int, policy: OverflowPolicy) {
        self.storage = storage
        self.capacity = capacity
        self.policy = policy
    }

    /// The same shared iteration, for subscribers with their own buffer bound and overflow
    /// policy (see `share(replay:buffer:whenFull:)`); other subscribers keep theirs.
    ///
    /// ```swift
    /// let taps = buttonTaps.share()
    /// let preview = taps.buffering(1, whenFull: .latest)   // only the newest tap matters here
    /// ```
    /// - Precondition: `buffer` is at least 1.
    @inlinable public func buffering(_ buffer: Int, whenFull: OverflowPolicy) -> Self {
        precondition(buffer >= 1, "buffering(_:whenFull:) needs a buffer of at least 1, got \(buffer)")
        return Self(storage, capacity: buffer, policy: whenFull)
    }

    /// Subscribes: the iterator gets the replay, then every element from now on.
    @inlinable public func makeAsyncIterator() -> Iterator {
        Iterator(subscription: Subscription(storage: storage, capacity: capacity, policy: policy))
    }

    /// Ties a subscriber to its iterator's lifetime: releasing the iterator unsubscribes.
    @usableFromInline final class Subscription {
        @usableFromInline let storage: ShareStorage<Base>
        @usableFromInline let id: UInt64

        @inlinable init(storage: ShareStorage<Base>, capacity: Int, policy: OverflowPolicy) {
            self.storage = storage
            id = storage.subscribe(capacity: capacity, policy: policy)
        }

        deinit {
            storage.unsubscribe(id)
        }
    }

    /// One subscriber's elements; not shareable between tasks.
    public struct Iterator: AsyncIteratorProtocol {
        @usableFromInline let subscription: Subscription

        @inlinable init(subscription: Subscription) {
            self.subscription = subscription
        }

        /// The subscriber's next element; `nil` after the end, or once its task was cancelled.
        /// - Throws: The base's failure.
        @inlinable public mutating func next() async throws(Failure) -> Element? {
            try await subscription.storage.next(subscription.id, isolation: nil)
        }

        /// The subscriber's next element; `nil` after the end, or once its task was cancelled.
        /// - Throws: The base's failure.
        @inlinable public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
            try await subscription.storage.next(subscription.id, isolation: actor)
        }
    }
}

@available(*, unavailable)
extension AsyncShareSequence.Iterator: Sendable {}
