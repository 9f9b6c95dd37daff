/// A multi-consumer hot stream, the role of Combine's `PassthroughSubject`.
///
/// Every subscriber receives every element sent after it subscribed (no replay), in the order of
/// sending, into its own bounded buffer whose ``OverflowPolicy`` decides what happens when the
/// subscriber falls behind. One slow subscriber never slows the others unless it chose
/// ``OverflowPolicy/suspendProducer``, and then only producers using ``deliver(_:)`` wait.
///
/// Sending never runs subscriber code: an element sent from inside a subscriber's loop is
/// buffered and arrives after the element being handled. Dropping the last reference to a
/// `Broadcast` finishes it.
public final class Broadcast<Element: Sendable>: Sendable, AsyncSequence {
    public typealias Failure = Never

    @usableFromInline let storage: _BroadcastStorage<Element>

    /// Creates a broadcast with no subscribers.
    public init() {
        storage = _BroadcastStorage(current: nil)
    }

    deinit {
        storage.finish()
    }

    /// Sends `element` to every current subscriber.
    ///
    /// Synchronous, callable from any isolation, and never suspends, so it cannot wait for a
    /// full buffer: a subscriber whose buffer is full applies its policy, and a
    /// `.suspendProducer` one drops the arriving element. Every drop is counted in that
    /// subscription's ``Subscription/droppedCount`` and reported here: use ``deliver(_:)`` to
    /// wait for room instead. Ignored after ``finish()``.
    /// - Returns: `true` when every subscriber buffered the element without dropping one;
    ///   `false` when a subscriber dropped an element, or after ``finish()``.
    @inlinable
    @discardableResult
    public func send(_ element: Element) -> Bool {
        storage.send(element)
    }

    /// Sends `elements` in order, taking the lock once for the whole batch; otherwise like
    /// ``send(_:)``. The sequence is iterated under that lock, so it must not use this broadcast.
    /// - Returns: `false` when any subscriber dropped an element.
    @inlinable
    @discardableResult
    public func send<S: Sequence>(contentsOf elements: S) -> Bool where S.Element == Element {
        storage.send(contentsOf: elements)
    }

    /// Sends `element` like ``send(_:)``, but waits while a `.suspendProducer` subscriber's
    /// buffer is full instead of dropping for it.
    ///
    /// Does not suspend at all when every subscriber has room. Other subscribers receive the
    /// element at once. If the calling task is cancelled while waiting, it stops waiting and the
    /// element is dropped (and counted) for the subscribers still full. From inside a subscriber's
    /// own loop use ``send(_:)``: waiting there for that subscriber's room would wait forever.
    @inlinable
    @inline(__always)
    public nonisolated(nonsending) func deliver(_ element: Element) async {
        await storage.deliver(element)
    }

    /// Delivers `elements` in order, taking the lock once for the batch; otherwise like
    /// ``deliver(_:)``. Returns once every element is buffered by every subscriber.
    @inlinable
    public nonisolated(nonsending) func deliver(contentsOf elements: [Element]) async {
        await storage.deliver(contentsOf: elements)
    }

    /// Ends every subscription once it has drained what it buffered (including elements of
    /// producers still waiting in ``deliver(_:)``), and wakes every waiting iterator.
    ///
    /// Idempotent. Later subscribers end at once; later sends are ignored.
    public func finish() {
        storage.finish()
    }

    /// Registers a subscriber now: it receives the next element sent, nothing earlier.
    ///
    /// This is how to subscribe before sending without a race: the subscription is
    /// registered when this returns, so elements sent right afterwards wait in its buffer
    /// until a task iterates it (`for await` in a `Task` made later, or `sink`).
    ///
    /// ```swift
    /// let updates = broadcast.subscribe()
    /// broadcast.send(1)                                  // buffered for `updates`
    /// Task { for await value in updates { print(value) } }
    /// ```
    ///
    /// - Parameters:
    ///   - bufferSize: How many elements the subscriber may have waiting; at least 1 (a smaller
    ///     value stops the program with a message). Default 1024. Ignored for `.latest`.
    ///   - overflow: What a full buffer does with an arriving element. Default
    ///     `.suspendProducer`. `.latest` means a capacity of 1 keeping the newest element.
    public func subscribe(bufferSize: Int = 1024, overflow: OverflowPolicy = .suspendProducer) -> Subscription {
        storage.subscribe(bufferSize: bufferSize, overflow: overflow, replayingCurrent: false)
    }

    /// The number of registered subscribers (a subscription leaves when it is cancelled, dropped,
    /// or has drained after ``finish()``).
    public var subscriberCount: Int {
        storage.subscriberCount
    }

    /// Subscribes with the default buffer size and policy at this moment and returns the
    /// subscription's iterator.
    public func makeAsyncIterator() -> Subscription.AsyncIterator {
        subscribe().makeAsyncIterator()
    }
}
