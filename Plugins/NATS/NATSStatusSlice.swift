import SwitchyardBus

/// The plugin's slice of bus state, `state.NAME`, folded from its own actions:
/// `status` (`connecting` | `connected` | `disconnected`), `url`, `server`, `lastError`,
/// `failures` (the `NAME/failed` count), `dropped` (actions lost to a full buffer) and
/// `counters` (the bridge's, at most a second old while they change: `NAME/counters`); and for
/// a plugin that subscribes, `origins`: the buses heard through NATS (``RelayOrigins``), with
/// their lag from the counters' `originLag`.
enum NATSStatusSlice {
    /// Keeps the bridge's counters; their per-origin lag goes to the origins instead.
    private static func counters(_ counters: JSON, subscribes: Bool, into slice: inout JSON) {
        var counters = counters
        if let lags = counters["originLag"] {
            counters["originLag"] = nil
            if subscribes { RelayOrigins.lagged(lags, in: &slice) }
        }
        slice["counters"] = counters
    }

    /// The slice before any action; with `origins` for a plugin that subscribes.
    static func initial(url: String, subscribes: Bool = false) -> JSON {
        var slice: JSON = [
            "status": "connecting",
            "url": .string(url),
            "server": nil,
            "lastError": nil,
            "failures": 0,
            "dropped": 0,
            "counters": .emptyObject,
        ]
        if subscribes { slice[RelayOrigins.member] = .emptyObject }
        return slice
    }

    /// The reducer for the plugin named `name`; it looks at actions the plugin emitted and, when
    /// it subscribes, at the actions relayed from other buses (source `nats:ORIGIN`).
    static func reducer(name: String, subscribes: Bool = false) -> @Sendable (inout JSON, BusAction) -> Void {
        let status = name + "/status"
        let failed = name + "/failed"
        let overflow = name + "/overflow"
        let counters = name + "/counters"
        return { slice, action in
            if subscribes, let origin = RelayOrigins.origin(of: action.source) {
                RelayOrigins.heard(origin, action, in: &slice)
                return
            }
            guard action.source == name else { return }
            switch action.type {
            case status:
                slice["status"] = action.payload["status"] ?? .null
                if let url = action.payload["url"] { slice["url"] = url }
                if let server = action.payload["server"] { slice["server"] = server }
                if let reason = action.payload["reason"] { slice["lastError"] = reason }
                if let counters = action.payload["counters"] { Self.counters(counters, subscribes: subscribes, into: &slice) }
            case failed:
                slice["lastError"] = action.payload["message"] ?? .null
                slice["failures"] = .integer(Int64((slice["failures"]?.intValue ?? 0) + 1))
            case overflow:
                slice["dropped"] = action.payload["dropped"] ?? .null
            case counters:
                Self.counters(action.payload, subscribes: subscribes, into: &slice)
            default:
                break
            }
        }
    }
}
