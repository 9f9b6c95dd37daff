import SwitchyardBus

extension LocationEmitterPlugin {
    /// Every `NAME/changed` as a position, a track broken while the location is not available.
    public static var contributions: PluginContributions {
        PluginContributions(position: PositionSource(
            action: "changed", latitude: "latitude", longitude: "longitude", altitude: ["altitude"], time: "timestamp",
            horizontalAccuracy: "horizontalAccuracy", speed: "speed", course: "course",
            loss: PositionLoss(event: "availability", healthy: "available")))
    }
}
