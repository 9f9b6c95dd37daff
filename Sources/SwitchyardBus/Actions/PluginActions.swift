import SwitchyardStreams

/// The actions handed to a plugin: those matching its pattern, in reduction order, buffered
/// per plugin as its ``ActionSubscription`` says.
///
/// Iterate it from one task. Iteration ends when the bus stops or the task is cancelled.
public struct PluginActions: AsyncSequence, Sendable {
    public typealias Element = BusAction
    public typealias Failure = Never

    let subscription: Broadcast<BusAction>.Subscription?

    /// Actions this plugin lost because it fell behind its buffer.
    public var droppedCount: Int { subscription?.droppedCount ?? 0 }

    /// An iterator over the plugin's actions.
    public func makeAsyncIterator() -> Iterator {
        Iterator(base: subscription?.makeAsyncIterator())
    }

    /// Yields the plugin's actions; ends at once for a plugin without a subscription.
    public struct Iterator: AsyncIteratorProtocol {
        var base: Broadcast<BusAction>.Subscription.AsyncIterator?

        /// The next action, or `nil` when the bus stopped or the task was cancelled.
        public mutating func next(isolation actor: isolated (any Actor)?) async -> BusAction? {
            await base?.next(isolation: actor)
        }

        /// How many actions the iterator holds that ``next(isolation:)`` returns without
        /// waiting.
        package var takenCount: Int { base?.takenCount ?? 0 }

        /// The next action, or `nil` when the bus stopped or the task was cancelled.
        public mutating func next() async -> BusAction? {
            await next(isolation: nil)
        }
    }
}
