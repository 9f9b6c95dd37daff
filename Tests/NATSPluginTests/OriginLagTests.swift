import FoundationEssentials
import SwitchyardBus
import Testing
@testable import NATSPlugin

/// An origin's transport lag: the time a relayed action's bus stamped it (`Switchyard-Time`),
/// read by the decoder, measured by the bridge at receipt, and folded into `origins`.
struct OriginLagTests {
    private func message(time: String?) -> NATSMessage {
        var fields: [NATSHeaders.Field] = [.init("Switchyard-Origin", "bus-a"), .init("Nats-Msg-Id", "bus-a-\(time?.count ?? 0)")]
        if let time { fields.append(.init("Switchyard-Time", time)) }
        return NATSMessage(subject: "switchyard.gps.fix", sid: "2", headers: NATSHeaders(fields), payload: Array(#"{"x":1}"#.utf8))
    }

    /// A time header is read; none (an older bus, another publisher) is no time, not an error;
    /// garbage is unreadable, and the action is still taken, its payload untouched.
    @Test func theDecoderReadsTheTime() {
        var decoder = InboundDecoder(origin: "bus-b", mapping: .standard)
        let stamped = decoder.decide(message(time: "2027-01-15T08:00:00.250Z"))
        #expect(stamped == .action(type: "gps/fix", payload: ["x": 1], source: "nats:bus-a", messageID: "bus-a-24",
                                   sent: .at(Date(timeIntervalSince1970: 1_800_000_000.25))))
        let plain = decoder.decide(message(time: nil))
        #expect(plain == .action(type: "gps/fix", payload: ["x": 1], source: "nats:bus-a", messageID: "bus-a-0", sent: .absent))
        let garbage = decoder.decide(message(time: "yesterday, about noon"))
        #expect(garbage == .action(type: "gps/fix", payload: ["x": 1], source: "nats:bus-a", messageID: "bus-a-21",
                                   sent: .unreadable("yesterday, about noon")))
    }

    /// The last lag and the largest per origin; no time, no lag; garbage counted; at most
    /// ``OriginLags/limit`` origins, the one heard least recently forgotten.
    @Test func lagsPerOriginAreBounded() {
        let now = Date(timeIntervalSince1970: 1_800_000_010)
        var lags = OriginLags()
        lags.record(.at(now.addingTimeInterval(-2)), from: "nats:truck-a", now: now)
        lags.record(.at(now.addingTimeInterval(-0.5)), from: "nats:truck-a", now: now)
        lags.record(.absent, from: "nats:truck-b", now: now)
        lags.record(.unreadable("x"), from: "nats:truck-b", now: now)
        #expect(lags.lags["truck-a"]?.last == 0.5 && lags.lags["truck-a"]?.largest == 2)
        #expect(lags.lags["truck-b"] == nil && lags.unreadable == 1)
        #expect(lags.json == ["truck-a": ["last": 0.5, "largest": 2.0]])
        for n in 0..<OriginLags.limit { lags.record(.at(now), from: "nats:bus-\(n)", now: now) }
        #expect(lags.lags.count == OriginLags.limit && lags.lags["truck-a"] == nil && lags.lags["bus-0"] != nil)
    }

    /// The counters' `originLag` becomes each known origin's `lag` and `maxLag` (the largest
    /// over the journal); the counters are kept without it; `/metrics` shows the lag.
    @Test func countersFoldIntoTheOrigins() throws {
        let reduce = NATSStatusSlice.reducer(name: "nats", subscribes: true)
        var slice = NATSStatusSlice.initial(url: "nats://h:4222", subscribes: true)
        reduce(&slice, BusAction(type: "gps/fix", payload: ["x": 1], source: "nats:truck-a"))
        reduce(&slice, BusAction(type: "gps/fix", payload: ["x": 1], source: "nats:truck-b"))
        let lags: JSON = ["truck-a": ["last": 0.25, "largest": 3.0], "ghost": ["last": 1.0, "largest": 1.0]]
        reduce(&slice, BusAction(type: "nats/counters", payload: ["received": 2, "originLag": lags], source: "nats"))
        reduce(&slice, BusAction(type: "nats/counters", payload: ["received": 3, "originLag": ["truck-a": ["last": 0.5, "largest": 0.5]]], source: "nats"))
        #expect(slice["counters"] == ["received": 3])
        #expect(slice["origins"]?["truck-a"]?["lag"] == 0.5 && slice["origins"]?["truck-a"]?["maxLag"] == 3.0)
        #expect(slice["origins"]?["truck-b"]?["lag"] == nil, "an origin that sends no time has no lag")
        #expect(slice["origins"]?["ghost"] == nil, "a lag does not invent an origin")
        let family = try #require(NATSPlugin.contributions.metrics.first { $0.name == "switchyard_nats_origin_lag_seconds" })
        #expect(family.samples(PluginObservation(name: "nats", slice: slice)) == [PluginMetricSample(0.5, labels: [.init("origin", "truck-a")])])
    }
}

/// Two real buses through a real nats-server, in core mode: the receiver's counters carry the
/// sender's lag once a second (core mode has no other tick), and its origins fold it.
@Suite(NATSServer.requirement, .serialized)
struct OriginLagBusTests {
    @Test func aCoreModeReceiverReportsTheLag() async throws {
        let server = try await NATSServer()
        let fleet = try Fleet()
        let emitter = fleet.emitter("gps/fix", count: 20, trigger: "go", pause: 0.1)
        let sender = try await fleet.startBridge("truck", on: server, subscribing: "switchyard.none.>", publish: "gps/*", plugins: [emitter])
        let receiver = try await fleet.startBridge("hq", on: server, subscribing: "switchyard.gps.>")
        try fleet.touch("go")
        let reported = await receiver.wait("the truck's lag in the counters", timeout: .seconds(60)) { bus in
            bus.actions("fleet/counters").contains { $0.payload["originLag"]?["truck"]?["last"]?.doubleValue != nil }
        }
        #expect(reported)
        #expect(await sender.stop() == 0)
        #expect(await receiver.stop() == 0)
        let lag = try #require(receiver.actions("fleet/counters").last { $0.payload["originLag"] != nil }?.payload["originLag"]?["truck"])
        // One machine's clock on both sides: the lag is the trip through the server, well under a minute.
        let last = try #require(lag["last"]?.doubleValue)
        let largest = try #require(lag["largest"]?.doubleValue)
        #expect(last >= 0 && last < 60 && largest >= last)
        #expect(receiver.actions("gps/fix").allSatisfy { $0.source == "nats:truck" })
    }
}
