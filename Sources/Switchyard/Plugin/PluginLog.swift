/// A plugin's lines on the bus log, each prefixed with the plugin's name.
public struct PluginLog: Sendable {
    /// The plugin's name, written before every line.
    public let name: String
    let sink: LogSink

    /// Writes an informational line.
    public func info(_ message: String) { sink.write(.info, "\(name): \(message)") }
    /// Writes a warning: something went wrong and the plugin carries on.
    public func warning(_ message: String) { sink.write(.warning, "\(name): \(message)") }
    /// Writes an error: something failed.
    public func error(_ message: String) { sink.write(.error, "\(name): \(message)") }
}
