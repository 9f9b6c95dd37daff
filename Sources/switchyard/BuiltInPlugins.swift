import ExecPlugin
import GPSDPlugin
import LocationEmitterPlugin
import LoggerPlugin
import NetworkFetchPlugin
import NATSPlugin
import Switchyard
import TimerPlugin

/// The plugin kinds the `switchyard` program knows.
enum BuiltInPlugins {
    static var registry: PluginRegistry {
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
