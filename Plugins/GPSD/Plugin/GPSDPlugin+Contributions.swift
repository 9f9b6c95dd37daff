import SwitchyardBus

extension GPSDPlugin {
    /// The fix and the feed's health on `/metrics`, a feed that is not connected and fresh
    /// holding `/readyz` back, and every 2D or 3D `NAME/fix` as a position.
    public static var contributions: PluginContributions {
        PluginContributions(metrics: metrics, readiness: readiness, position: position)
    }

    /// The statuses of a feed that gives no current positions.
    static let unreadyStatuses: Set<String> = ["stale", "disconnected", "connecting"]

    static let metrics: [PluginMetricFamily] = [
        .state("switchyard_gpsd_fix_mode", .gauge, help: "The last fix's mode: 0 unknown, 1 no fix, 2 2D, 3 3D.") {
            Double($0["fix"]?["mode"]?.intValue ?? 0)
        },
        .state("switchyard_gpsd_satellites_used", .gauge, help: "Satellites used in the last fix, from the last sky report.") {
            Double($0["satellites"]?["used"]?.intValue ?? 0)
        },
        .state("switchyard_gpsd_satellites_visible", .gauge, help: "Satellites visible in the last sky report.") {
            Double($0["satellites"]?["visible"]?.intValue ?? 0)
        },
        .state("switchyard_gpsd_connected", .gauge, help: "1 while the gpsd feed is connected and fresh, else 0.") {
            $0["status"]?.stringValue == "connected" ? 1 : 0
        },
        .reported("readPauses", as: "switchyard_gpsd_read_pauses_total", .counter,
                  help: "Times a gpsd feed stopped reading because the bus was behind."),
        .reported("overrunDisconnects", as: "switchyard_gpsd_overrun_disconnects_total", .counter,
                  help: "Connections gpsd ended while the bus was behind (the reports gpsd held are lost)."),
    ]

    @Sendable static func readiness(_ plugin: PluginObservation) -> [String] {
        guard let status = plugin.slice["status"]?.stringValue, unreadyStatuses.contains(status) else { return [] }
        return ["\(kind) plugin \(plugin.name) is \(status)"]
    }

    static let position = PositionSource(
        action: "fix", summary: "NAME/fix with a 2D or 3D fix", latitude: "lat", longitude: "lon", altitude: ["altMSL", "altHAE"],
        time: "time", horizontalAccuracy: "eph", speed: "speed", course: "track", minimumMode: 2,
        loss: PositionLoss(event: "status", healthy: "connected"))
}
