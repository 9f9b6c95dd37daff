import FoundationEssentials
import SwitchyardBus

/// The transport lag of each origin bus the bridge hears: the time from when the origin's bus
/// stamped an action (its `Switchyard-Time` header) to when this bridge received it, the last
/// one and the largest seen. Both clocks are wall clocks of different machines, so the lag
/// includes their difference (NTP keeps it to milliseconds); a lag below zero is a clock ahead.
///
/// Bounded: at most ``limit`` origins (as ``RelayOrigins``); one more forgets the origin heard
/// least recently. Messages without the header have no lag; unreadable headers are counted.
struct OriginLags: Sendable {
    /// The most origins kept.
    static let limit = RelayOrigins.originLimit

    struct Lag: Sendable, Hashable {
        var last: Double
        var largest: Double
        /// When it was last heard, in the order of the bridge's messages.
        var heard: UInt64
    }

    private(set) var lags: [String: Lag] = [:]
    /// `Switchyard-Time` headers that were not a time.
    private(set) var unreadable = 0
    private var messages: UInt64 = 0

    /// Records what `sent` tells of a message from `source` (`nats:ORIGIN`) received at `now`.
    mutating func record(_ sent: InboundDecoder.SentTime, from source: String, now: Date) {
        switch sent {
        case .absent:
            return
        case .unreadable:
            unreadable += 1
        case .at(let time):
            guard let origin = RelayOrigins.origin(of: source) else { return }
            let lag = now.timeIntervalSince(time)
            messages += 1
            let key = String(origin)
            if let known = lags[key] {
                lags[key] = Lag(last: lag, largest: max(known.largest, lag), heard: messages)
                return
            }
            if lags.count >= Self.limit, let stalest = lags.min(by: { $0.value.heard < $1.value.heard })?.key { lags[stalest] = nil }
            lags[key] = Lag(last: lag, largest: lag, heard: messages)
        }
    }

    /// `{"ORIGIN": {"last": SECONDS, "largest": SECONDS}}`, the bridge's `originLag` counter.
    var json: JSON {
        .object(lags.mapValues { ["last": .number($0.last), "largest": .number($0.largest)] })
    }
}
