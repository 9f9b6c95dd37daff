import Synchronization
import SwitchyardStreams

/// Hands reduced actions to plugin subscriptions, filtering by pattern before buffering so a
/// flood of one type never pushes another type out of a plugin's buffer.
final class ActionRouter: Sendable {
    private struct Route: Sendable {
        let owner: String?
        let pattern: TypePattern
        let broadcast: Broadcast<BusAction>
        /// Sources whose actions the owner drops unread; `nil` when it reads every source.
        var ignoredSource: (@Sendable (String) -> Bool)?
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
            var matching = Self.kept(actions) { route.pattern.matches($0.type) }
            guard !matching.isEmpty else { continue }
            if let owner = route.owner { handed.withLock { $0[owner, default: 0] &+= UInt64(matching.count) } }
            if let ignored = route.ignoredSource {
                matching = Self.kept(matching) { !ignored($0.source) }
                guard !matching.isEmpty else { continue }
            }
            await route.broadcast.deliver(contentsOf: matching)
        }
    }

    /// Stops handing `owner`'s subscriptions the actions whose source `ignored` accepts, for a
    /// plugin that drops them unread; they still count as handed to it (``received(by:)``).
    func ignore(sources ignored: @escaping @Sendable (String) -> Bool, owner: String) {
        routes.withLock { routes in
            for index in routes.indices where routes[index].owner == owner { routes[index].ignoredSource = ignored }
        }
    }

    /// The actions of `batch` that `keep` accepts. When it accepts all of them (a watcher of
    /// everything, or of the one domain a busy batch is made of) the batch itself is handed on,
    /// sharing its buffer, instead of a copy of every action for each subscription.
    private static func kept(_ batch: [BusAction], _ keep: (BusAction) -> Bool) -> [BusAction] {
        guard let firstMiss = batch.firstIndex(where: { !keep($0) }) else { return batch }
        var kept = Array(batch[..<firstMiss])
        for index in (firstMiss + 1)..<batch.endIndex where keep(batch[index]) {
            kept.append(batch[index])
        }
        return kept
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
