// One import gives a program every built-in plugin type, to build its own bus with some of
// them and plugins of its own.
@_exported import ExecPlugin
@_exported import GPSDPlugin
@_exported import LocationEmitterPlugin
@_exported import LoggerPlugin
@_exported import NATSPlugin
@_exported import NetworkFetchPlugin
@_exported import SwitchyardBus
@_exported import TimerPlugin

extension PluginRegistry {
    /// A registry of every built-in plugin kind: `exec`, `gpsd`, `location-emitter`, `logger`,
    /// `nats`, `network-fetch` and `timer` — what the `switchyard` program knows. Register your
    /// own kinds on a copy:
    ///
    /// ```swift
    /// var registry = PluginRegistry.builtIn
    /// registry.register(HeartbeatPlugin.self)
    /// ```
    public static var builtIn: PluginRegistry {
        var registry = PluginRegistry()
        registry.register(ExecPlugin.self)
        registry.register(GPSDPlugin.self)
        registry.register(LocationEmitterPlugin.self)
        registry.register(LoggerPlugin.self)
        registry.register(NetworkFetchPlugin.self)
        registry.register(NATSPlugin.self)
        registry.register(TimerPlugin.self)
        return registry
    }
}
