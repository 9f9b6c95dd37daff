/// A metric family a plugin kind adds to `/metrics` (see ``PluginContributions/metrics``).
///
/// The bus writes the family's `# HELP` and `# TYPE` once, then each plugin's samples, in the
/// configuration's order, every sample labelled `plugin="NAME"` before its own labels.
public struct PluginMetricFamily: Sendable {
    /// A Prometheus metric type.
    public enum MetricType: String, Sendable, Hashable {
        /// Only ever grows (restarts at zero with the process).
        case counter
        /// Goes up and down.
        case gauge
    }

    /// The family's name, such as `switchyard_nats_published_total`.
    public var name: String
    /// Counter or gauge.
    public var type: MetricType
    /// The `# HELP` text: one line.
    public var help: String
    /// The reported counters (``PluginObservation/counters``) this family shows: the bus leaves
    /// them out of `switchyard_plugin_counter`, so no value is shown twice.
    public var counters: Set<String>
    /// One plugin's samples, read from what the bus observes of it.
    public var samples: @Sendable (PluginObservation) -> [PluginMetricSample]

    /// Creates a family whose samples `samples` reads; `counters` names the reported counters
    /// it shows (default: none).
    public init(name: String, type: MetricType, help: String, counters: Set<String> = [],
                samples: @escaping @Sendable (PluginObservation) -> [PluginMetricSample]) {
        self.name = name
        self.type = type
        self.help = help
        self.counters = counters
        self.samples = samples
    }

    /// A family showing the reported counter `key` of each plugin: one sample, 0 while the
    /// plugin has not reported it.
    public static func reported(_ key: String, as name: String, _ type: MetricType, help: String) -> PluginMetricFamily {
        PluginMetricFamily(name: name, type: type, help: help, counters: [key]) { plugin in
            [PluginMetricSample(Double(plugin.counters[key] ?? 0))]
        }
    }

    /// A family with one sample per plugin, read from its state slice by `value`.
    public static func state(_ name: String, _ type: MetricType, help: String,
                             value: @escaping @Sendable (JSON) -> Double) -> PluginMetricFamily {
        PluginMetricFamily(name: name, type: type, help: help) { plugin in [PluginMetricSample(value(plugin.slice))] }
    }
}

/// One sample of a ``PluginMetricFamily``.
public struct PluginMetricSample: Sendable, Hashable {
    /// Label names and values after `plugin`, in the order written.
    public var labels: [Label]
    /// The value.
    public var value: Double

    /// A label: name and value (the bus escapes the value).
    public struct Label: Sendable, Hashable {
        /// The label's name, such as `outcome`.
        public var name: String
        /// Its value.
        public var value: String

        /// Creates a label.
        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    /// Creates a sample with `labels` (default: none beyond `plugin`).
    public init(_ value: Double, labels: [Label] = []) {
        self.labels = labels
        self.value = value
    }
}
