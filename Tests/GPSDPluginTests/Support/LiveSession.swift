@testable import GPSDPlugin
import Switchyard

/// A ``GPSDSession`` on the real socket transport and the continuous clock, recording what it
/// emits, for tests against a real gpsd.
struct LiveSession {
    let recorder = ActionRecorder()
    let task: Task<Void, Never>

    /// Starts a session on `port` with quick reconnects; `configure` adjusts the rest.
    init(port: Int, configure: (inout GPSDConfiguration) -> Void = { _ in }) {
        var configuration = GPSDConfiguration()
        configuration.endpoint = .tcp(host: "127.0.0.1", port: port)
        configuration.reconnectDelay = .milliseconds(50)
        configuration.maximumReconnectDelay = .milliseconds(400)
        configuration.satellitesInterval = .zero
        configure(&configuration)
        let recorder = recorder
        let session = GPSDSession(
            configuration: configuration, clock: ContinuousClock(), transport: SocketTransport(),
            output: GPSDSessionOutput(
                emit: { event, payload in recorder.record(event, payload) },
                info: { _ in }, warning: { message in recorder.record("log-warning", .string(message)) }))
        task = Task { await session.run() }
    }

    /// Cancels the session and waits for it to end.
    func stop() async {
        task.cancel()
        await task.value
    }
}

extension ActionRecorder.Record {
    /// Whether this is the `device` report of gpsfake's device going away at the end of a
    /// capture played once.
    var isDeviceGone: Bool {
        event == "device" && payload["active"] == .bool(false)
    }
}
