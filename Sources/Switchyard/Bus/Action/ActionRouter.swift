import Synchronization
import SwitchyardStreams

/// Hands reduced actions to plugin subscriptions, filtering by pattern before buffering so a
/// flood of one type never pushes another type out of a plugin's buffer.
final class ActionRouter: Sendable {
    private struct Route: Sendable {
        let owner: String?
        let pattern: TypePattern
        let broadcast: Broadcast<BusAction>
    }

    private let routes = Mutex<[Route]>([])
    /// Actions handed to each owner's subscriptions, for `received` in the statistics.
    private let handed = Mutex<[String: UInt64]>([:])

    /// A subscription live from this call on; `owner` names the plugin it belongs to.
    func subscribe(_ subscription: ActionSubscription, owner: String?) -> PluginActions {
        let broadcast = Broadcast<BusAction>()
        let stream = broadcast.subscribe(bufferSize: subscription.bufferSize, overflow: subscription.overflow)
        routes.withLock { $0.append(Route(owner: owner, pattern: subscription.pattern, broadcast: broadcast)) }
        return PluginActions(subscription: stream)
    }

    /// Delivers a reduced batch to every matching subscription; waits only for subscriptions
    /// that chose ``OverflowPolicy/suspendProducer``. Subscriptions whose consumer is gone are
    /// pruned here.
    func route(_ actions: [BusAction]) async {
        let current = routes.withLock { routes in
            routes.removeAll { $0.broadcast.subscriberCount == 0 }
            return routes
        }
        for route in current {
            let matching = Self.matching(actions, route.pattern)
            guard !matching.isEmpty else { continue }
            if let owner = route.owner { handed.withLock { $0[owner, default: 0] &+= UInt64(matching.count) } }
            await route.broadcast.deliver(contentsOf: matching)
        }
    }

    /// The actions of `batch` that `pattern` matches. When it matches all of them (a watcher of
    /// everything, or of the one domain a busy batch is made of) the batch itself is handed on,
    /// sharing its buffer, instead of a copy of every action for each subscription.
    private static func matching(_ batch: [BusAction], _ pattern: TypePattern) -> [BusAction] {
        guard let firstMiss = batch.firstIndex(where: { !pattern.matches($0.type) }) else { return batch }
        var matching = Array(batch[..<firstMiss])
        for index in (firstMiss + 1)..<batch.endIndex where pattern.matches(batch[index].type) {
            matching.append(batch[index])
        }
        return matching
    }

    /// Actions handed to `owner`'s subscriptions so far (those it then dropped included).
    func received(by owner: String) -> UInt64 {
        handed.withLock { $0[owner] ?? 0 }
    }

    /// Ends every subscription of `owner` (every subscription when `nil`) after it drains
    /// what it buffered.
    func finish(owner: String? = nil) {
        let ended = routes.withLock { routes in
            let ended = routes.filter { owner == nil || $0.owner == owner }
            routes.removeAll { owner == nil || $0.owner == owner }
            return ended
        }
        for route in ended { route.broadcast.finish() }
    }
}
