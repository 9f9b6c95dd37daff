/// What a plugin kind adds to what the bus shows about its plugins: metric families for
/// `/metrics`, conditions that hold `/readyz` back, a position source for the dashboard's map and
/// `journal export --gpx|--geojson`, and a hook for a process that must exit at once.
///
/// The bus, its doors and the command line ask the registry for these and name no kind, so a
/// kind of your own contributes the same way the built-in ones do:
///
/// ```swift
/// extension Heartbeat {
///     static var contributions: PluginContributions {
///         PluginContributions(
///             metrics: [.reported("beats", as: "heartbeat_beats_total", .counter, help: "Beats sent.")],
///             readiness: { plugin in plugin.slice["late"] == true ? ["heartbeat \(plugin.name) is late"] : [] })
///     }
/// }
/// ```
public struct PluginContributions: Sendable {
    /// Families `/metrics` shows for the kind, each with one sample per plugin of the kind (or
    /// as many as its reader returns), also when no plugin of the kind is configured (then only
    /// the family's `# HELP` and `# TYPE`). Default: none.
    public var metrics: [PluginMetricFamily]
    /// The problems that make `/readyz` answer "not ready" for one plugin of the kind, one line
    /// each, read from its slice and counters whenever `/readyz` is asked; empty when it is
    /// ready. Default: `nil`, the plugin is ready once it runs.
    public var readiness: (@Sendable (PluginObservation) -> [String])?
    /// The actions of the kind that carry a position. Default: `nil`, no positions.
    public var position: PositionSource?
    /// Runs when the process exits at once (a second stop signal, a stop that hung), on the
    /// thread that exits: it must not wait for the bus. Returns a note for the exit's log line,
    /// such as "killed 2 child process groups", or `nil` when it had nothing to do.
    /// Default: `nil`, no hook.
    public var exitHook: (@Sendable () -> String?)?

    /// Creates contributions; every part defaults to nothing, as documented on each property.
    public init(metrics: [PluginMetricFamily] = [], readiness: (@Sendable (PluginObservation) -> [String])? = nil,
                position: PositionSource? = nil, exitHook: (@Sendable () -> String?)? = nil) {
        self.metrics = metrics
        self.readiness = readiness
        self.position = position
        self.exitHook = exitHook
    }
}

/// One plugin as its kind's contributions see it, read at one time.
public struct PluginObservation: Sendable {
    /// The plugin's name in the configuration.
    public var name: String
    /// Its slice of bus state (`state.NAME`); `null` when it keeps none.
    public var slice: JSON
    /// The counters it reports about itself (``PluginContext/reportCounters(_:)``), by name.
    public var counters: [String: Int64]
    /// Its `NAME/loaded` and `NAME/failed` actions reduced so far, by outcome (`loaded`,
    /// `failed`) and failure kind (the payload's `kind`; empty for `loaded`), sorted.
    public var results: [PluginResultCount]

    /// Creates an observation; defaults are a plugin with no slice, counters or results.
    public init(name: String, slice: JSON = .null, counters: [String: Int64] = [:], results: [PluginResultCount] = []) {
        self.name = name
        self.slice = slice
        self.counters = counters
        self.results = results
    }
}

/// How many `NAME/loaded` or `NAME/failed` actions (of one failure kind) a plugin emitted.
public struct PluginResultCount: Sendable, Hashable {
    /// `loaded` or `failed`.
    public var outcome: String
    /// The failed payload's `kind` (`unknown` when it has none); empty for `loaded`.
    public var kind: String
    /// How many were reduced.
    public var count: UInt64

    /// Creates a count.
    public init(outcome: String, kind: String, count: UInt64) {
        self.outcome = outcome
        self.kind = kind
        self.count = count
    }
}

extension Plugin {
    /// What the kind shows beyond its own actions and state. Default: nothing
    /// (``PluginContributions/init(metrics:readiness:position:exitHook:)`` with no arguments).
    public static var contributions: PluginContributions { PluginContributions() }
}
