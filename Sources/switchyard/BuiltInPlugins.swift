import SwitchyardPlugins

/// The plugin kinds the `switchyard` program knows: the library's built-in registry, so the
/// program and a program built on the `SwitchyardPlugins` product know the same kinds.
enum BuiltInPlugins {
    static var registry: PluginRegistry { .builtIn }
}
