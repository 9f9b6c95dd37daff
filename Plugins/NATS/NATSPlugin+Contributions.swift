import SwitchyardBus

extension NATSPlugin {
    /// The bridge's traffic on `/metrics`: what it published, received, holds and dropped.
    public static var contributions: PluginContributions {
        PluginContributions(metrics: [
            .reported("published", as: "switchyard_nats_published_total", .counter, help: "Actions a NATS bridge published."),
            .reported("received", as: "switchyard_nats_received_total", .counter, help: "Actions a NATS bridge received from other buses."),
            .reported("buffered", as: "switchyard_nats_buffered", .gauge, help: "Actions a NATS bridge holds unsent."),
            .reported("dropped", as: "switchyard_nats_dropped_total", .counter, help: "Actions a NATS bridge dropped."),
        ])
    }
}
