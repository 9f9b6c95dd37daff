import Synchronization

/// A coalescing wake-up for one piece of loop-side work: any thread or task may ``fire()`` it,
/// as often as it likes, and the work runs on the loop at least once after each call but only
/// once for calls that come before it runs. A producer of many small results (replies,
/// stream items) thus costs the loop one turn per batch, not per item.
///
/// Made by ``LoopThread/makeSignal(_:)``; inert once ``LoopThread/removeSignal(_:)`` ran. An
/// ``EmbeddedLoop``'s signals queue nothing: its turn looks at them (``takeFired()``).
package final class LoopSignal: Sendable {
    let token: UInt64
    private let loop: EventLoop?
    private let pending = Atomic<Bool>(false)

    init(token: UInt64, loop: EventLoop?) {
        self.token = token
        self.loop = loop
    }

    /// Queues the work unless it is queued already.
    package func fire() {
        guard !pending.exchange(true, ordering: .acquiringAndReleasing) else { return }
        loop?.enqueue(.signal(self))
    }

    /// Whether the signal was fired since it last ran, re-armed at once (the embedded loop's
    /// turn, which polls its signals instead of being woken).
    func takeFired() -> Bool {
        pending.exchange(false, ordering: .acquiringAndReleasing)
    }

    /// Called on the loop just before the work runs, so a call made while it runs queues it
    /// again instead of being lost.
    func rearm() {
        pending.store(false, ordering: .sequentiallyConsistent)
    }
}
