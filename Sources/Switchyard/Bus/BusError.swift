/// Errors thrown by ``Bus/run()``.
public struct BusError: Error, Sendable, Hashable, CustomStringConvertible {
    private enum Code: Sendable, Hashable {
        case alreadyStarted
        case pluginNotReady(plugin: String, timeout: Duration)
    }

    private let code: Code

    private init(_ code: Code) {
        self.code = code
    }

    /// `run()` was called on a bus that already ran; a bus runs once.
    public static let alreadyStarted = BusError(.alreadyStarted)

    /// A plugin with signalled readiness did not report ready within its timeout.
    public static func pluginNotReady(_ plugin: String, timeout: Duration) -> BusError {
        BusError(.pluginNotReady(plugin: plugin, timeout: timeout))
    }

    public var description: String {
        switch code {
        case .alreadyStarted:
            return "the bus has already been started; a bus runs once"
        case .pluginNotReady(let plugin, let timeout):
            return "plugin \"\(plugin)\" did not report ready within \(timeout)"
        }
    }
}
