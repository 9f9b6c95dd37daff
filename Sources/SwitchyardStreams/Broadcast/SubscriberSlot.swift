import Synchronization

/// What a subscription shares with the producer side outside the lock: its drop counter (which
/// must outlive the registration, so a finished subscriber can still report it) and whether it
/// was cancelled (read by the iterator on every element, so an atomic rather than the lock).
@usableFromInline
final class _SubscriberStatus: Sendable {
    @usableFromInline let dropped = Atomic<Int>(0)
    @usableFromInline let cancelled = Atomic<Bool>(false)
    /// Whether an iterator consumes the registration now; a second iterator made meanwhile
    /// registers a subscription of its own instead.
    @usableFromInline let claimed = Atomic<Bool>(false)

    @inlinable
    init() {}

    @inlinable
    var isCancelled: Bool { cancelled.load(ordering: .relaxed) }

    @inlinable
    func countDropped(_ count: Int = 1) {
        dropped.add(count, ordering: .relaxed)
    }
}

/// An element a suspended `deliver` could not buffer yet, tagged with the wait it belongs to.
@usableFromInline
struct _PendingElement<Element: Sendable>: Sendable {
    @usableFromInline var element: Element
    @usableFromInline var wait: Int
    /// Its send-order stamp for a slot linked by ``_SendOrderLink`` (0 otherwise).
    @usableFromInline var stamp: UInt64

    @inlinable
    init(element: Element, wait: Int, stamp: UInt64) {
        self.element = element
        self.wait = wait
        self.stamp = stamp
    }
}

/// One registered subscriber inside the broadcast state: its bounded buffer, its overflow policy,
/// the elements of producers waiting for room, and the consumer waiting for elements.
///
/// Invariant: `pending` is non-empty only while `buffer` is full, so taking from the buffer is the
/// one place that admits pending elements, in the order they arrived.
///
/// A slot that `withLatestFrom` links by send order keeps its stamps in the state's `links`, not
/// here: every `send` walks these slots, and it ran measurably slower with the link's fields and
/// check in each of them.
@usableFromInline
struct _SubscriberSlot<Element: Sendable>: Sendable {
    @usableFromInline let id: Int
    @usableFromInline let capacity: Int
    @usableFromInline let policy: OverflowPolicy
    @usableFromInline let status: _SubscriberStatus
    @usableFromInline var buffer = _FIFOBuffer<Element>()
    @usableFromInline var pending = _FIFOBuffer<_PendingElement<Element>>()
    @usableFromInline var consumer: UnsafeContinuation<Void, Never>?

    @inlinable
    init(id: Int, bufferSize: Int, policy: OverflowPolicy, status: _SubscriberStatus) {
        self.id = id
        self.capacity = policy == .latest ? 1 : bufferSize
        self.policy = policy
        self.status = status
    }

    /// Buffers `element` for a producer that cannot wait: a full buffer applies the policy, and
    /// `.suspendProducer` degrades to dropping the arriving element.
    /// - Returns: `false` when an element was dropped (and counted).
    @inlinable
    mutating func offer(_ element: Element, wakeups: inout _Wakeups) -> Bool {
        if _fastPath(buffer.count < capacity) {
            append(element, wakeups: &wakeups)
            return true
        }
        overflow(element)
        return false
    }

    /// Buffers `element` for a producer that can wait; returns false, changing nothing, when the
    /// producer must queue it as pending instead (a full `.suspendProducer` buffer).
    @inlinable
    mutating func offerUnlessFull(_ element: Element, wakeups: inout _Wakeups) -> Bool {
        if _fastPath(buffer.count < capacity) {
            append(element, wakeups: &wakeups)
            return true
        }
        guard policy != .suspendProducer else { return false }
        overflow(element)
        return true
    }

    @inlinable
    mutating func append(_ element: Element, wakeups: inout _Wakeups) {
        buffer.append(element)
        if let consumer {
            self.consumer = nil
            wakeups.append(consumer)
        }
    }

    /// Applies the overflow policy to `element` arriving at a full buffer.
    @inlinable
    mutating func overflow(_ element: Element) {
        switch policy {
        case .suspendProducer, .dropNewest:
            break
        case .dropOldest, .latest:
            buffer.removeFirst()
            buffer.append(element)
        }
        status.countDropped()
    }
}
