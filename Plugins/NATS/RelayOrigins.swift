import SwitchyardBus

/// The buses a subscribing bridge has heard, kept in its slice as `origins`: for each origin
/// bus, the source its actions carry (`nats:ORIGIN`), how many were reduced, when the last one
/// was (the time this bus reduced it), its type, and the types heard (at most
/// ``typeLimit``, first come). Folded from the relayed actions themselves, so a replay, a
/// restart or a look at the past (`state --at`) sees the same. With the bridge's counters
/// (`NAME/counters`, at most a second old) come `lag`, the transport lag of the origin's last
/// action in seconds (``OriginLags``), and `maxLag`, the largest seen; an origin whose bus
/// sends no `Switchyard-Time` has neither.
///
/// Bounded: at most ``originLimit`` origins are kept; one more evicts the one heard least
/// recently, counted in `originsEvicted`, so a publisher that invents origin names cannot grow
/// the state (nor `/metrics`, which shows each origin).
enum RelayOrigins {
    /// The slice member.
    static let member = "origins"
    /// The most origins kept.
    static let originLimit = 64
    /// The most types listed per origin.
    static let typeLimit = 16
    private static let prefix = "nats:"

    /// `ORIGIN` of a source `nats:ORIGIN`; `nil` for any other source.
    static func origin(of source: String) -> Substring? {
        guard source.hasPrefix(prefix) else { return nil }
        return source.dropFirst(prefix.count)
    }

    /// Folds `action`, relayed from `origin`, into `slice`.
    static func heard(_ origin: Substring, _ action: BusAction, in slice: inout JSON) {
        var origins = slice[member]?.objectValue ?? [:]
        // The slice lets go of its table while it is edited, so the edits below happen in place
        // instead of copying every origin for each relayed action.
        slice[member] = .null
        let key = String(origin)
        var entry = origins[key]?.objectValue ?? ["source": .string(action.source), "received": 0, "types": .array([])]
        if origins[key] == nil, origins.count >= originLimit, let stalest = leastRecent(origins) {
            origins[stalest] = nil
            slice["originsEvicted"] = .integer(Int64((slice["originsEvicted"]?.intValue ?? 0) + 1))
        }
        entry["received"] = .integer(Int64((entry["received"]?.intValue ?? 0) + 1))
        entry["lastSeen"] = .string(Timestamp.iso8601(action.time))
        entry["lastType"] = .string(action.type)
        var types = entry["types"]?.arrayValue ?? []
        if types.count < typeLimit, !types.contains(.string(action.type)) {
            types.append(.string(action.type))
            entry["types"] = .array(types)
        }
        origins[key] = .object(entry)
        slice[member] = .object(origins)
    }

    /// Folds the bridge's `originLag` counter (``OriginLags/json``) into the origins it names.
    static func lagged(_ lags: JSON?, in slice: inout JSON) {
        guard let lags = lags?.objectValue, !lags.isEmpty, var origins = slice[member]?.objectValue else { return }
        slice[member] = .null
        for (origin, lag) in lags {
            guard var entry = origins[origin]?.objectValue, let last = lag["last"]?.doubleValue else { continue }
            entry["lag"] = .number(last)
            let largest = max(lag["largest"]?.doubleValue ?? last, entry["maxLag"]?.doubleValue ?? -.infinity)
            entry["maxLag"] = .number(largest)
            origins[origin] = .object(entry)
        }
        slice[member] = .object(origins)
    }

    /// The origin heard least recently (times in one ISO 8601 form sort as text).
    private static func leastRecent(_ origins: [String: JSON]) -> String? {
        origins.min { ($0.value["lastSeen"]?.stringValue ?? "") < ($1.value["lastSeen"]?.stringValue ?? "") }?.key
    }
}
