extension Broadcast {
    /// One subscriber's view of a ``Broadcast``: its buffered elements, in order, for a single
    /// consumer.
    ///
    /// The subscription ends when the broadcast finishes (after draining its buffer), when
    /// ``cancel()`` is called, or when the consuming task is cancelled; dropping the subscription
    /// and its iterators unregisters it. Iterating it again after leaving a loop continues where
    /// the previous iterator stopped.
    ///
    /// One iterator at a time consumes this registration. An iterator made while another one
    /// is still alive (the subscription iterated by two tasks, or `s.merge(with: s)`) is a
    /// subscription of its own, registered when it is made, with the same buffer size and
    /// policy, as each `subscribe` in Combine is one: both see every element sent afterwards.
    public final class Subscription: Sendable, AsyncSequence {
        public typealias Failure = Never

        /// How the subscription was made, for the extra registrations of concurrent iterators.
        @usableFromInline struct Settings: Sendable {
            @usableFromInline let bufferSize: Int
            @usableFromInline let overflow: OverflowPolicy
            @usableFromInline let replaysCurrent: Bool

            @usableFromInline init(bufferSize: Int, overflow: OverflowPolicy, replaysCurrent: Bool) {
                self.bufferSize = bufferSize
                self.overflow = overflow
                self.replaysCurrent = replaysCurrent
            }
        }

        @usableFromInline let storage: _BroadcastStorage<Element>
        @usableFromInline let id: Int
        @usableFromInline let status: _SubscriberStatus
        @usableFromInline let settings: Settings

        @usableFromInline
        init(storage: _BroadcastStorage<Element>, id: Int, status: _SubscriberStatus, settings: Settings) {
            self.storage = storage
            self.id = id
            self.status = status
            self.settings = settings
        }

        deinit {
            storage.unsubscribe(id)
        }

        /// The number of elements this subscriber lost to its overflow policy (including elements
        /// of a `deliver` cancelled while waiting for it). Still readable after the end.
        public var droppedCount: Int {
            status.dropped.load(ordering: .relaxed)
        }

        /// The number of elements waiting in this subscriber's buffer. An iterator takes all
        /// waiting elements at once when it runs out, so these are the ones it has not taken yet.
        public var bufferedCount: Int {
            storage.bufferedCount(of: id)
        }

        /// Ends this subscription only, discarding what it buffered; idempotent. A waiting
        /// iterator returns nil.
        public func cancel() {
            status.cancelled.store(true, ordering: .relaxed)
            storage.unsubscribe(id)
        }

        /// Returns an iterator over this subscription's elements; while another iterator of it
        /// is alive, an iterator of a new registration with the same settings (see above). Once
        /// the subscription is cancelled, an iterator that returns nil at once.
        public func makeAsyncIterator() -> AsyncIterator {
            guard status.claimed.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else {
                // Cancelling ends the subscription for good: a new registration would wait for
                // elements its caller has said it no longer wants, with no one left to end it.
                if status.isCancelled {
                    return AsyncIterator(consumer: _SubscriptionConsumer(subscription: self, holdsClaim: false))
                }
                let own = storage.subscribe(
                    bufferSize: settings.bufferSize,
                    overflow: settings.overflow,
                    replayingCurrent: settings.replaysCurrent
                )
                own.status.claimed.store(true, ordering: .relaxed)
                return AsyncIterator(consumer: _SubscriptionConsumer(subscription: own))
            }
            return AsyncIterator(consumer: _SubscriptionConsumer(subscription: self))
        }

        /// The iterator of a ``Subscription``: returns buffered elements without suspending, and
        /// suspends only when the buffer is empty.
        public struct AsyncIterator: AsyncIteratorProtocol {
            public typealias Failure = Never

            @usableFromInline let consumer: _SubscriptionConsumer<Element>

            @usableFromInline
            init(consumer: _SubscriptionConsumer<Element>) {
                self.consumer = consumer
            }

            /// Returns the next element, or nil once the subscription has ended or the calling
            /// task is cancelled (which ends the subscription).
            ///
            /// ``Subscription/cancel()`` and task cancellation take effect at the next element
            /// (at once if the iterator is waiting): nothing taken in the current batch is
            /// returned after either.
            @inlinable
            public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async -> Element? {
                if let element = consumer.batch.popFirst() {
                    if _fastPath(!consumer.status.isCancelled && !Task.isCancelled) {
                        return element
                    }
                    consumer.end()
                    return nil
                }
                return await consumer.refill(isolation: actor)
            }

            /// How many elements this iterator took from the buffer and has not returned yet:
            /// that many calls of `next()` return without suspending (unless the subscription
            /// or the task is cancelled meanwhile). A consumer that writes its elements out can
            /// gather them all before writing once.
            @inlinable
            package var takenCount: Int { consumer.batch.count }

            /// Returns the next element, or nil once the subscription has ended or the calling
            /// task is cancelled (which ends the subscription).
            @inlinable
            public mutating func next() async -> Element? {
                await next(isolation: nil)
            }
        }
    }
}

/// The consuming side of a subscription: the batch the iterator took from the shared buffer and
/// iterates without locking.
///
/// A class so that an iterator abandoned mid-batch (a `break` out of a loop) hands its untaken
/// elements back to the subscription instead of losing them.
@usableFromInline
final class _SubscriptionConsumer<Element: Sendable> {
    @usableFromInline let subscription: Broadcast<Element>.Subscription
    @usableFromInline let status: _SubscriberStatus
    @usableFromInline var batch = _FIFOBuffer<Element>()
    /// Where the subscriber's slot was found last time.
    @usableFromInline var slotHint = 0
    /// Whether this consumer is the subscription's one claimed iterator (an iterator of a
    /// cancelled subscription made while another is alive is not).
    let holdsClaim: Bool

    @usableFromInline
    init(subscription: Broadcast<Element>.Subscription, holdsClaim: Bool = true) {
        self.subscription = subscription
        self.status = subscription.status
        self.holdsClaim = holdsClaim
    }

    deinit {
        if !batch.isEmpty {
            subscription.storage.putBack(batch, for: subscription.id)
        }
        if holdsClaim { status.claimed.store(false, ordering: .releasing) }
    }

    /// Takes the next batch, waiting for one if the buffer is empty.
    @inlinable
    @inline(never)
    func refill(isolation actor: isolated (any Actor)?) async -> Element? {
        let storage = subscription.storage
        let id = subscription.id
        while true {
            if status.isCancelled || Task.isCancelled {
                end()
                return nil
            }
            batch.removeAll()
            switch storage.take(id, hint: &slotHint, into: &batch) {
            case .taken:
                return batch.popFirst()
            case .ended:
                return nil
            case .empty:
                await storage.waitForElements(id, hint: slotHint, isolation: actor)
            }
        }
    }

    @usableFromInline
    func end() {
        batch = _FIFOBuffer()
        subscription.cancel()
    }
}
