/// A plugin's lines on the bus log, each carrying the plugin's name (`switchyard: info: gps:
/// connected` in text, `"plugin": "gps"` in JSON).
public struct PluginLog: Sendable {
    /// The plugin's name, written with every line.
    public let name: String
    let sink: LogSink

    /// Whether lines at `level` are written: to skip building costly messages.
    public func isEnabled(_ level: LogSink.Level) -> Bool { sink.isEnabled(level) }

    /// Writes a line at `level` with optional `metadata` (key=value pairs in text, an object in JSON).
    public func write(_ level: LogSink.Level, _ message: String, metadata: [String: String] = [:]) {
        sink.write(level, message, plugin: name, metadata: metadata)
    }

    /// Writes a trace line: every step, for chasing a problem.
    public func trace(_ message: String) { sink.write(.trace, message, plugin: name) }
    /// Writes a debug line: detail a user does not need day to day.
    public func debug(_ message: String) { sink.write(.debug, message, plugin: name) }
    /// Writes an informational line.
    public func info(_ message: String) { sink.write(.info, message, plugin: name) }
    /// Writes a warning: something went wrong and the plugin carries on.
    public func warning(_ message: String) { sink.write(.warning, message, plugin: name) }
    /// Writes an error: something failed.
    public func error(_ message: String) { sink.write(.error, message, plugin: name) }
}
