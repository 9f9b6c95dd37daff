import Synchronization

/// The HTTP API, the dashboard and `/metrics` as a service of a bus: served while the bus runs
/// when its configuration sets `bus.http` (on the address it names); otherwise it serves
/// nothing.
public final class HTTPDoor: BusService {
    private let server = Mutex<HTTPServer?>(nil)

    /// The HTTP door; its settings come from the bus's configuration when it starts.
    public init() {}

    /// Listens on the configured address and serves on the process's event loop; returns
    /// `http URL`, or `nil` when the configuration sets no `bus.http`.
    /// - Throws: ``BusError/httpServer(_:reason:)`` when the address cannot be listened on
    ///   (in use, say).
    public func start(on bus: Bus) throws(BusError) -> String? {
        guard let settings = bus.configuration.bus.http else { return nil }
        // Only this door serves the page, so only it builds it (once, with the plugins'
        // position sources).
        var backend = DoorBackend(bus: bus)
        backend.dashboard = Array(DashboardPage.html(positionSources: bus.registry.positionSources).utf8)
        do {
            let started = try HTTPServer.start(settings: settings, limits: HTTPLimits(settings: settings), backend: backend, log: bus.core.log)
            server.withLock { $0 = started }
            return "http \(started.url)"
        } catch {
            throw .httpServer(settings.authority, reason: error.description)
        }
    }

    /// Closes the listener and every connection, letting each take its pending bytes for up
    /// to `grace`.
    public func stop(grace: Duration) async {
        let server = server.withLock { $0 }
        await server?.shutDown(grace: grace)
    }

    /// Sets ``BusStatistics/http`` while the server runs.
    public func report(into statistics: inout BusStatistics) {
        if let counters = server.withLock({ $0?.statistics }) { statistics.http = counters }
    }
}
