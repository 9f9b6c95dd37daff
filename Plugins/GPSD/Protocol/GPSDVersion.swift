import SwitchyardBus

/// A `VERSION` report, the first line gpsd sends on every connection.
struct GPSDVersion: Sendable, Hashable {
    /// The gpsd release, such as `3.22`.
    var release: String?
    /// The protocol version as `major.minor`, such as `3.14`.
    var protocolVersion: String?

    /// Decodes the members of a VERSION object.
    init(_ members: [String: JSON]) {
        release = members["release"]?.stringValue
        if let major = members["proto_major"]?.intValue {
            protocolVersion = "\(major).\(members["proto_minor"]?.intValue ?? 0)"
        }
    }
}

/// A `WATCH` report: gpsd's acknowledgement of `?WATCH`, with the policy it applied.
struct GPSDWatch: Sendable, Hashable {
    /// Whether watching is on.
    var isEnabled: Bool
    /// The one device watched, when the watch named one.
    var device: String?

    /// Decodes the members of a WATCH object; `enable` defaults to true as in gpsd.
    init(_ members: [String: JSON]) {
        isEnabled = members["enable"]?.boolValue ?? true
        device = members["device"]?.stringValue
    }
}
