import SwitchyardBus

/// The location emitter's slice of bus state: `{"availability": …, "location": …}`, the last
/// `NAME/availability` and the last `NAME/changed` payload.
enum LocationSlice {
    /// Before anything arrived: unavailable, no location.
    static let initial: JSON = ["availability": "unavailable", "location": .null]

    /// The slice for the plugin called `name`.
    static func slice(name: String) -> StateSlice {
        let availability = "\(name)/availability"
        let changed = "\(name)/changed"
        return StateSlice(initial: initial, actions: .domain(name)) { state, action in
            switch action.type {
            case availability: state["availability"] = action.payload["availability"] ?? .null
            case changed: state["location"] = action.payload
            default: break
            }
        }
    }
}
