import FoundationEssentials
import SwitchyardBus
import Testing
@testable import NATSPlugin

/// The buses a subscribing bridge has heard, in its slice.
struct RelayOriginsTests {
    private func relayed(_ type: String, from origin: String, at seconds: Double) -> BusAction {
        var action = BusAction(type: type, payload: ["lat": 48.8, "lon": 2.3], source: "nats:" + origin)
        action.time = Date(timeIntervalSince1970: 1_800_000_000 + seconds)
        return action
    }

    /// Each origin's count, last time, last type and types fold from its relayed actions; the
    /// bridge's own actions still fold as before, and a bridge that does not subscribe keeps no
    /// origins.
    @Test func foldsEachOrigin() {
        let reduce = NATSStatusSlice.reducer(name: "nats", subscribes: true)
        var slice = NATSStatusSlice.initial(url: "nats://h:4222", subscribes: true)
        #expect(slice["origins"] == .emptyObject)
        reduce(&slice, relayed("gps/fix", from: "truck-a", at: 1))
        reduce(&slice, relayed("gps/fix", from: "truck-b", at: 2))
        reduce(&slice, relayed("door/open", from: "truck-a", at: 3.5))
        reduce(&slice, BusAction(type: "nats/status", payload: ["status": "connected"], source: "nats"))
        #expect(slice["status"] == "connected")
        let a = slice["origins"]?["truck-a"]
        #expect(a?["source"] == "nats:truck-a")
        #expect(a?["received"] == 2)
        #expect(a?["lastType"] == "door/open")
        #expect(a?["types"] == ["gps/fix", "door/open"])
        #expect(a?["lastSeen"] == .string(Timestamp.iso8601(Date(timeIntervalSince1970: 1_800_000_003.5))))
        #expect(slice["origins"]?["truck-b"]?["received"] == 1)

        let quiet = NATSStatusSlice.reducer(name: "nats")
        var plain = NATSStatusSlice.initial(url: "nats://h:4222")
        quiet(&plain, relayed("gps/fix", from: "truck-a", at: 1))
        #expect(plain["origins"] == nil)
    }

    /// Origins past the limit evict the one heard least recently (counted); the types listed
    /// per origin stop at their limit while its count goes on.
    @Test func staysBounded() {
        let reduce = NATSStatusSlice.reducer(name: "nats", subscribes: true)
        var slice = NATSStatusSlice.initial(url: "nats://h:4222", subscribes: true)
        for n in 0..<RelayOrigins.originLimit { reduce(&slice, relayed("gps/fix", from: "bus-\(n)", at: Double(n))) }
        reduce(&slice, relayed("gps/fix", from: "bus-0", at: 100))
        reduce(&slice, relayed("gps/fix", from: "newcomer", at: 101))
        let origins = slice["origins"]?.objectValue ?? [:]
        #expect(origins.count == RelayOrigins.originLimit)
        #expect(origins["bus-0"] != nil && origins["newcomer"] != nil && origins["bus-1"] == nil)
        #expect(slice["originsEvicted"] == 1)
        for n in 0..<(RelayOrigins.typeLimit + 5) { reduce(&slice, relayed("kind/e\(n)", from: "newcomer", at: 200)) }
        #expect(slice["origins"]?["newcomer"]?["types"]?.arrayValue?.count == RelayOrigins.typeLimit)
        #expect(slice["origins"]?["newcomer"]?["received"] == .integer(Int64(RelayOrigins.typeLimit + 6)))
    }

    /// `/metrics` shows each origin's count and last time, labelled by origin.
    @Test func metricsPerOrigin() throws {
        let reduce = NATSStatusSlice.reducer(name: "nats", subscribes: true)
        var slice = NATSStatusSlice.initial(url: "nats://h:4222", subscribes: true)
        reduce(&slice, relayed("gps/fix", from: "truck-b", at: 2))
        reduce(&slice, relayed("gps/fix", from: "truck-a", at: 1))
        let families = NATSPlugin.contributions.metrics
        let received = try #require(families.first { $0.name == "switchyard_nats_origin_received_total" })
        let seen = try #require(families.first { $0.name == "switchyard_nats_origin_last_seen_seconds" })
        let observation = PluginObservation(name: "nats", slice: slice)
        #expect(received.samples(observation) == [PluginMetricSample(1, labels: [.init("origin", "truck-a")]),
                                                  PluginMetricSample(1, labels: [.init("origin", "truck-b")])])
        #expect(seen.samples(observation).map(\.value) == [1_800_000_001, 1_800_000_002])
        #expect(received.samples(PluginObservation(name: "quiet")).isEmpty)
    }
}
