import Testing

@testable import Switchyard
@testable import SwitchyardBus

/// The router's ignore rule for a plugin that drops some sources unread (a bridge): kept for
/// the plugin's routes made after the rule, not only those it had, until the plugin finishes.
struct ActionRouterTests {
    private static let relayed = BusAction(type: "gps/fix", source: "nats:far")
    private static let local = BusAction(type: "gps/fix", source: "gps")

    /// The sources of every action `actions` yields until its route is finished.
    private static func sources(_ actions: PluginActions) async -> [String] {
        var sources: [String] = []
        for await action in actions { sources.append(action.source) }
        return sources
    }

    /// A route the owner had when it asked and one it made afterwards (as a restart does) both
    /// skip the ignored source; another owner's route gets everything; every action still
    /// counts as handed to the owner.
    @Test func ruleCoversRoutesMadeAfterIt() async {
        let router = ActionRouter()
        let earlier = router.subscribe(ActionSubscription(.all), owner: "bridge")
        router.ignore(sources: { $0.hasPrefix("nats:") }, owner: "bridge")
        let later = router.subscribe(ActionSubscription(.all), owner: "bridge")
        let other = router.subscribe(ActionSubscription(.all), owner: "logger")
        await router.route([Self.relayed, Self.local], objects: nil)
        router.finish()
        #expect(await Self.sources(earlier) == ["gps"])
        #expect(await Self.sources(later) == ["gps"])
        #expect(await Self.sources(other) == ["nats:far", "gps"])
        #expect(router.received(by: "bridge") == 4)
    }

    /// Finishing the owner forgets its rule: a plugin of that name started afterwards (a
    /// reload may give the name to another kind) reads every source.
    @Test func finishingTheOwnerForgetsTheRule() async {
        let router = ActionRouter()
        router.ignore(sources: { $0.hasPrefix("nats:") }, owner: "bridge")
        router.finish(owner: "bridge")
        let next = router.subscribe(ActionSubscription(.all), owner: "bridge")
        await router.route([Self.relayed, Self.local], objects: nil)
        router.finish()
        #expect(await Self.sources(next) == ["nats:far", "gps"])
    }
}
