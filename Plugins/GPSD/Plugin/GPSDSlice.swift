import SwitchyardBus

/// The gpsd plugin's slice of bus state, so any plugin or client can read the feed's state
/// without having watched every action: `{"status": …, "devices": {PATH: device}, "fix": …}`,
/// and `satellites` (the last `NAME/satellites` summary) once one arrived.
enum GPSDSlice {
    /// Before the plugin has run: disconnected, no device, no fix.
    static let initial: JSON = ["status": "disconnected", "devices": .emptyObject, "fix": .null]

    /// The slice for the plugin called `name`: it follows `NAME/status`, `NAME/device` and
    /// `NAME/fix`, and ignores every other action.
    static func slice(name: String) -> StateSlice {
        let status = "\(name)/status"
        let device = "\(name)/device"
        let fix = "\(name)/fix"
        let satellites = "\(name)/satellites"
        return StateSlice(initial: initial, actions: .domain(name)) { state, action in
            switch action.type {
            case status:
                state["status"] = action.payload["status"] ?? .null
                if action.payload["status"] != "connected" && action.payload["status"] != "stale" {
                    state["devices"] = .emptyObject
                }
            case device:
                guard let path = action.payload["path"]?.stringValue else { return }
                var devices = state["devices"] ?? .emptyObject
                devices[path] = action.payload["active"] == false ? nil : action.payload
                state["devices"] = devices
            case fix:
                state["fix"] = action.payload
            case satellites:
                state["satellites"] = action.payload
            default:
                break
            }
        }
    }
}
