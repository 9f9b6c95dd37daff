import Synchronization
import SwitchyardStreams

/// Hands reduced actions to plugin subscriptions, filtering by pattern before buffering so a
/// flood of one type never pushes another type out of a plugin's buffer.
///
/// Streams that send actions as text (control watchers, event streams) subscribe to
/// ``ActionLine``s instead: each action's JSON object written once for all of them — by the
/// journal's writer, whose objects come with the batch (``route(_:objects:)``), or, without a
/// journal, here, once a batch, when a stream first needs them.
package final class ActionRouter: Sendable {
    private enum Subscriber: Sendable {
        case actions(Broadcast<BusAction>)
        case lines(Broadcast<ActionLine>)

        var count: Int {
            switch self {
            case .actions(let broadcast): broadcast.subscriberCount
            case .lines(let broadcast): broadcast.subscriberCount
            }
        }

        func finish() {
            switch self {
            case .actions(let broadcast): broadcast.finish()
            case .lines(let broadcast): broadcast.finish()
            }
        }
    }

    private struct Route: Sendable {
        let owner: String?
        let pattern: TypePattern
        let subscriber: Subscriber
        /// Sources whose actions the owner drops unread; `nil` when it reads every source.
        var ignoredSource: (@Sendable (String) -> Bool)?
    }

    /// The routes, and each owner's ignore rule, under one lock so that a route is never made
    /// between reading a rule and applying it.
    private struct Table: Sendable {
        var routes: [Route] = []
        /// Sources each owner drops unread, for its routes made now or later, until it finishes.
        var ignored: [String: @Sendable (String) -> Bool] = [:]

        mutating func add(_ subscriber: Subscriber, pattern: TypePattern, owner: String?) {
            routes.append(Route(owner: owner, pattern: pattern, subscriber: subscriber, ignoredSource: owner.flatMap { ignored[$0] }))
        }
    }

    private let table = Mutex(Table())
    /// Actions handed to each owner's subscriptions, for `received` in the statistics.
    private let handed = Mutex<[String: UInt64]>([:])

    /// A subscription live from this call on; `owner` names the plugin it belongs to.
    func subscribe(_ subscription: ActionSubscription, owner: String?) -> PluginActions {
        let broadcast = Broadcast<BusAction>()
        let stream = broadcast.subscribe(bufferSize: subscription.bufferSize, overflow: subscription.overflow)
        table.withLock { $0.add(.actions(broadcast), pattern: subscription.pattern, owner: owner) }
        return PluginActions(subscription: stream)
    }

    /// A subscription to the lines of the actions `subscription` matches, live from this call
    /// on, for a stream that sends them as text.
    package func subscribeLines(_ subscription: ActionSubscription) -> Broadcast<ActionLine>.Subscription {
        let broadcast = Broadcast<ActionLine>()
        let stream = broadcast.subscribe(bufferSize: subscription.bufferSize, overflow: subscription.overflow)
        table.withLock { $0.add(.lines(broadcast), pattern: subscription.pattern, owner: nil) }
        return stream
    }

    /// Delivers a reduced batch to every matching subscription; waits only for subscriptions
    /// that chose ``OverflowPolicy/suspendProducer``. `objects` are the batch's JSON objects the
    /// journal wrote, when it has a journal. Subscriptions whose consumer is gone are pruned here.
    func route(_ actions: [BusAction], objects: EncodedRun?) async {
        let current = table.withLock { table in
            table.routes.removeAll { $0.subscriber.count == 0 }
            return table.routes
        }
        var lines: [ActionLine]?
        for route in current {
            switch route.subscriber {
            case .actions(let broadcast):
                var matching = Self.matching(actions, route.pattern, actions)
                guard !matching.isEmpty else { continue }
                if let owner = route.owner { handed.withLock { $0[owner, default: 0] &+= UInt64(matching.count) } }
                if let ignored = route.ignoredSource, matching.contains(where: { ignored($0.source) }) {
                    matching.removeAll { ignored($0.source) }
                    guard !matching.isEmpty else { continue }
                }
                await broadcast.deliver(contentsOf: matching)
            case .lines(let broadcast):
                if lines == nil { lines = Self.lines(of: actions, objects: objects) }
                guard let all = lines else { continue }
                let matching = Self.matching(actions, route.pattern, all)
                guard !matching.isEmpty else { continue }
                await broadcast.deliver(contentsOf: matching)
            }
        }
    }

    /// Stops handing `owner`'s subscriptions the actions whose source `ignored` accepts, for a
    /// plugin that drops them unread; they still count as handed to it (``received(by:)``).
    /// Applies to the subscriptions `owner` has and to those it makes later (a restart's), until
    /// ``finish(owner:)`` ends them: a plugin of that name started afterwards reads every source.
    func ignore(sources ignored: @escaping @Sendable (String) -> Bool, owner: String) {
        table.withLock { table in
            table.ignored[owner] = ignored
            for index in table.routes.indices where table.routes[index].owner == owner {
                table.routes[index].ignoredSource = ignored
            }
        }
    }

    /// A line for every action: from the journal's objects, or written now.
    private static func lines(of actions: [BusAction], objects: EncodedRun?) -> [ActionLine]? {
        if let objects { return objects.lines(of: actions) }
        guard let encoded = EncodedBatch.encode(actions) else { return nil }
        return EncodedRun(batch: encoded, offset: 0, count: actions.count).lines(of: actions)
    }

    /// The elements of `elements`, one per action of `batch`, whose actions `pattern` matches.
    /// When it matches all of them (a watcher of everything, or of the one domain a busy batch
    /// is made of) `elements` itself is handed on, sharing its buffer, instead of a copy for
    /// each subscription.
    private static func matching<Element>(_ batch: [BusAction], _ pattern: TypePattern, _ elements: [Element]) -> [Element] {
        guard let firstMiss = batch.firstIndex(where: { !pattern.matches($0.type) }) else { return elements }
        var matching = Array(elements[..<firstMiss])
        for index in (firstMiss + 1)..<batch.endIndex where pattern.matches(batch[index].type) {
            matching.append(elements[index])
        }
        return matching
    }

    /// Actions handed to `owner`'s subscriptions so far (those it then dropped included).
    func received(by owner: String) -> UInt64 {
        handed.withLock { $0[owner] ?? 0 }
    }

    /// Ends every subscription of `owner` (every subscription when `nil`) after it drains
    /// what it buffered, and forgets its ignore rule (``ignore(sources:owner:)``).
    func finish(owner: String? = nil) {
        let ended = table.withLock { table in
            let ended = table.routes.filter { owner == nil || $0.owner == owner }
            table.routes.removeAll { owner == nil || $0.owner == owner }
            if let owner { table.ignored[owner] = nil } else { table.ignored.removeAll() }
            return ended
        }
        for route in ended { route.subscriber.finish() }
    }
}
