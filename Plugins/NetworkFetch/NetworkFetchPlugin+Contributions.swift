import SwitchyardBus

extension NetworkFetchPlugin {
    /// The fetches' results on `/metrics`: `NAME/loaded`, and `NAME/failed` by failure kind.
    public static var contributions: PluginContributions {
        PluginContributions(metrics: [
            PluginMetricFamily(name: "switchyard_fetch_results_total", type: .counter,
                               help: "Results of network-fetch plugins: loaded, or failed by kind (network, timeout, http, decode).") { plugin in
                plugin.results.map { PluginMetricSample(Double($0.count), labels: [.init("outcome", $0.outcome), .init("kind", $0.kind)]) }
            },
        ])
    }
}
