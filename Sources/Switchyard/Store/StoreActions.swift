import Synchronization
import SwitchyardStreams

/// Every action a ``Store`` reduces, in order, from the moment the subscription was made
/// (``Store/actions`` registers at once, so actions sent right after are not missed).
///
/// The first iterator consumes this subscription; iterating again after that iterator is gone
/// continues where it stopped. An iterator made while another one is still alive gets a
/// subscription of its own, registered when it is made — never a crash. The subscription ends
/// when the store is closed or freed (after its buffer is read), on ``cancel()``, or when the
/// consuming task is cancelled.
public final class StoreActions<Action: Sendable>: AsyncSequence, Sendable {
    public typealias Element = Action
    public typealias Failure = Never

    @usableFromInline let fanout: ActionFanout<Action>
    @usableFromInline let id: Int
    @usableFromInline let status: ActionSubscriberStatus
    let bufferSize: Int
    let overflow: OverflowPolicy

    /// The name used in log lines and ``StoreStatistics/subscribers``.
    public let name: String

    init(fanout: ActionFanout<Action>, id: Int, status: ActionSubscriberStatus, name: String,
         bufferSize: Int, overflow: OverflowPolicy) {
        self.fanout = fanout
        self.id = id
        self.status = status
        self.name = name
        self.bufferSize = bufferSize
        self.overflow = overflow
    }

    deinit {
        fanout.unsubscribe(id)
    }

    /// Actions this subscriber lost to a dropping overflow policy.
    public var droppedCount: Int { status.dropped.load(ordering: .relaxed) }

    /// Episodes in which the store had to wait for this subscriber (`.suspendProducer` only); a
    /// subscriber that catches up and falls behind again before it recovered stays in one.
    public var stallCount: Int { status.stalls.load(ordering: .relaxed) }

    /// Ends this subscription only, discarding what it buffered; idempotent.
    public func cancel() {
        status.cancelled.store(true, ordering: .relaxed)
        fanout.unsubscribe(id)
    }

    /// The iterator of this subscription, or of a new one when another iterator is alive.
    public func makeAsyncIterator() -> Iterator {
        if status.claim() { return Iterator(consumer: ActionConsumer(subscription: self)) }
        let fresh = fanout.subscribe(name: name, bufferSize: bufferSize, overflow: overflow)
        _ = fresh.status.claim()
        return Iterator(consumer: ActionConsumer(subscription: fresh))
    }

    /// Returns buffered actions without suspending; suspends only when none are buffered.
    public struct Iterator: AsyncIteratorProtocol {
        public typealias Failure = Never

        @usableFromInline let consumer: ActionConsumer<Action>

        @usableFromInline
        init(consumer: ActionConsumer<Action>) {
            self.consumer = consumer
        }

        /// The next action; nil once the subscription ended or the calling task is cancelled.
        @inlinable
        public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async -> Action? {
            let consumer = self.consumer
            if consumer.index < consumer.current.endIndex {
                if _fastPath(!consumer.status.isCancelled) {
                    defer { consumer.index += 1 }
                    return consumer.current[consumer.index]
                }
                return nil
            }
            return await consumer.refill(isolation: actor)
        }

        /// The next action; nil once the subscription ended or the calling task is cancelled.
        @inlinable
        public mutating func next() async -> Action? {
            await next(isolation: nil)
        }
    }
}

/// Counters and flags a subscription shares with its slot, readable after it ended.
@usableFromInline
final class ActionSubscriberStatus: Sendable {
    @usableFromInline let dropped = Atomic<Int>(0)
    @usableFromInline let stalls = Atomic<Int>(0)
    @usableFromInline let cancelled = Atomic<Bool>(false)
    @usableFromInline let claimed = Atomic<Bool>(false)

    @usableFromInline init() {}

    @inlinable
    var isCancelled: Bool { cancelled.load(ordering: .relaxed) }

    func claim() -> Bool {
        claimed.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
    }

    func release() {
        claimed.store(false, ordering: .releasing)
    }
}

/// An iterator's batches, taken from the subscriber's buffer in one swap; a class so that an
/// abandoned iterator returns what it did not consume and frees the subscription for the next.
/// The batches are slices of the arrays the store reduced, shared with the other subscribers.
@usableFromInline
final class ActionConsumer<Action: Sendable> {
    @usableFromInline let subscription: StoreActions<Action>
    @usableFromInline let status: ActionSubscriberStatus
    /// The slices taken in the last swap; `current` is `batches[next - 1]`.
    @usableFromInline var batches: [ArraySlice<Action>] = []
    @usableFromInline var next = 0
    /// The slice being read, and the index of its next action.
    @usableFromInline var current: ArraySlice<Action> = []
    @usableFromInline var index = 0

    init(subscription: StoreActions<Action>) {
        self.subscription = subscription
        self.status = subscription.status
    }

    deinit {
        if index < current.endIndex || next < batches.count {
            subscription.fanout.putBack([current[index...]] + batches[next...], for: subscription.id)
        }
        status.release()
    }

    @inlinable
    @inline(never)
    func refill(isolation actor: isolated (any Actor)?) async -> Action? {
        let fanout = subscription.fanout
        let id = subscription.id
        let task = withUnsafeCurrentTask { $0?.hashValue }
        while true {
            if status.isCancelled || Task.isCancelled {
                batches = []
                next = 0
                current = []
                index = 0
                subscription.cancel()
                return nil
            }
            // Slices are never empty: each gives at least one action.
            if next < batches.count {
                current = batches[next]
                next += 1
                index = current.startIndex + 1
                return current[current.startIndex]
            }
            current = []
            index = 0
            next = 0
            switch fanout.take(id, into: &batches, task: task) {
            case true?:
                continue
            case false?:
                await fanout.waitForActions(id, isolation: actor)
            case nil:
                return nil
            }
        }
    }
}

/// One `actions` subscriber's figures.
public struct ActionSubscriberStatistics: Sendable, Hashable {
    /// The subscriber's name (given to ``Store/actions(name:bufferSize:overflow:fileID:line:)``,
    /// or where it subscribed).
    public var name: String
    /// Actions waiting in its buffer.
    public var buffered: Int
    /// Actions it lost to a dropping overflow policy.
    public var dropped: Int
    /// Episodes in which the store waited for it.
    public var stalls: Int
    /// Whether the store is waiting for it right now.
    public var holdingStore: Bool
}
