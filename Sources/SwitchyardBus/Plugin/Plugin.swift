/// A bus plugin: a long-running piece of work that reacts to actions and emits new ones.
///
/// A plugin feels like a service: the bus constructs it from its settings (validating every
/// key before anything starts), then calls ``run(context:)`` in a task of its own and cancels
/// that task to stop it. `run` returns when cancelled; if it throws, the bus reports
/// `bus/plugin-failed` and restarts it according to the plugin's restart policy.
///
/// ```swift
/// struct Heartbeat: Plugin {
///     static let kind = "heartbeat"
///     static let summary = "Emits NAME/beat every second."
///     static let settingDescriptions: [SettingDescription] = []
///     init(name: String, settings: PluginSettings) throws { try settings.finish() }
///     func run(context: PluginContext) async throws {
///         while !Task.isCancelled {
///             try await context.sleep(for: .seconds(1))
///             await context.dispatch("\(context.name)/beat")
///         }
///     }
/// }
/// ```
public protocol Plugin: Sendable {
    /// The kind a config file names in `"kind"`, such as `gpsd`.
    static var kind: String { get }
    /// One line shown by `switchyard plugins`.
    static var summary: String { get }
    /// The settings the kind accepts, shown by `switchyard plugins`.
    static var settingDescriptions: [SettingDescription] { get }

    /// Creates the plugin from its config entry. Read every setting through `settings`, which
    /// records problems instead of stopping at the first, then call `settings.finish()`, which
    /// throws every problem at once (unknown keys included).
    init(name: String, settings: PluginSettings) throws

    /// The actions the bus hands to ``PluginContext/actions``, registered before any plugin
    /// starts so none is missed. Default: `nil`, no actions.
    var subscription: ActionSubscription? { get }

    /// The plugin's slice of bus state (`state.NAME`): an initial value and a pure reducer
    /// that sees every action. Default: `nil`, no slice.
    var slice: StateSlice? { get }

    /// The slice a plugin `name` with `settings` keeps, where it is never run: `journal diff
    /// --config` and `replay --effects off` only reduce recorded actions. There a `${VAR}`
    /// reference whose variable is unset is left in the settings as written, so a kind whose
    /// run needs values its slice does not (a server's URL, a token) reads only what its slice
    /// depends on, and its slice can be had without them.
    /// Default: builds the plugin and returns its ``slice``.
    /// - Throws: What the plugin's init throws for the settings the slice depends on.
    static func slice(name: String, settings: PluginSettings) throws -> StateSlice?

    /// When the bus may count the plugin as started. Default: ``PluginReadiness/immediate``.
    var readiness: PluginReadiness { get }

    /// What the kind shows beyond its own actions and state: metric families, readiness
    /// conditions, a position source, an exit hook. Default: nothing.
    static var contributions: PluginContributions { get }

    /// Runs until the task is cancelled. Throwing reports a failure and restarts the plugin
    /// according to its restart policy; returning early ends it (restarted only with `always`).
    func run(context: PluginContext) async throws
}

extension Plugin {
    public var subscription: ActionSubscription? { nil }
    public var slice: StateSlice? { nil }
    public static func slice(name: String, settings: PluginSettings) throws -> StateSlice? {
        try Self(name: name, settings: settings).slice
    }
    public var readiness: PluginReadiness { .immediate }
}

/// The actions a plugin receives: those matching `pattern`, buffered per plugin.
///
/// The default buffer never blocks the bus: when the plugin falls behind, the oldest actions
/// are dropped and counted (visible in the bus statistics). Choose
/// ``OverflowPolicy/suspendProducer`` only for a plugin that must see every action and is
/// always fast, since a full buffer then holds up the whole bus.
public struct ActionSubscription: Sendable, Hashable {
    /// The action types delivered.
    public var pattern: TypePattern
    /// The buffer size. Default: 1024.
    public var bufferSize: Int
    /// What happens when the buffer is full. Default: ``OverflowPolicy/dropOldest``.
    public var overflow: OverflowPolicy

    /// Creates a subscription; defaults as documented on each property.
    public init(_ pattern: TypePattern, bufferSize: Int = 1024, overflow: OverflowPolicy = .dropOldest) {
        self.pattern = pattern
        self.bufferSize = bufferSize
        self.overflow = overflow
    }
}

/// A plugin's slice of bus state: `state.NAME`.
public struct StateSlice: Sendable {
    /// The slice's value before any action.
    public var initial: JSON
    /// The action types the slice follows; the bus does not call ``reduce`` for others.
    /// Default: all of them.
    public var actions: TypePattern
    /// Folds one action into the slice. Runs on the bus for every action ``actions`` matches,
    /// also when the journal is replayed after a restart, so it must be pure and fast.
    public var reduce: @Sendable (inout JSON, BusAction) -> Void

    /// Creates a slice from its initial value and reducer, which the bus calls for the actions
    /// `actions` matches (default: every action). Naming the types a slice follows, usually
    /// `NAME/*`, spares every other action a lookup of the slice in the state: a bus with a
    /// few slices reduces each action faster by as many.
    public init(initial: JSON, actions: TypePattern = .all, reduce: @escaping @Sendable (inout JSON, BusAction) -> Void) {
        self.initial = initial
        self.actions = actions
        self.reduce = reduce
    }
}

/// When a plugin counts as started, for the bus's readiness.
public enum PluginReadiness: Sendable, Hashable {
    /// As soon as its `run` task has been started.
    case immediate
    /// When the plugin calls ``PluginContext/ready()``; if that takes longer than `timeout`,
    /// the bus fails to start.
    case signalled(timeout: Duration)
}

/// One setting of a plugin kind, as shown by `switchyard plugins`.
public struct SettingDescription: Sendable, Hashable {
    /// The key in the plugin's config entry.
    public var key: String
    /// What kind of value it takes, such as `number of seconds` or `"text" | "json"`.
    public var type: String
    /// The default, as written in a config file; `nil` when the key is required.
    public var defaultValue: String?
    /// What the setting does.
    public var summary: String
    /// The JSON Schema of the value, for `switchyard schema`; `nil` (the default) derives it
    /// from ``type`` (see ``valueSchema``).
    public var schema: JSON?

    /// Creates a description; `defaultValue: nil` marks the key as required.
    public init(_ key: String, _ type: String, default defaultValue: String? = nil, _ summary: String, schema: JSON? = nil) {
        self.key = key
        self.type = type
        self.defaultValue = defaultValue
        self.summary = summary
        self.schema = schema
    }
}
