import Synchronization

/// The control socket as a service of a bus: newline-delimited JSON requests on
/// `<dataDirectory>/control.sock` (``BusServices/socketPath(dataDirectory:)``), served while the
/// bus runs. The configuration's `bus.control` adds allowed users and sets the idle timeout.
public final class ControlDoor: BusService {
    private let limits: ControlLimits
    private let steps: ReplaySteps?
    private let server = Mutex<ControlServer?>(nil)

    /// A control socket with `limits` (default: ``ControlLimits/init(maximumLineLength:maximumClients:watcherBufferBytes:watcherBufferActions:)``);
    /// `steps` are the go-aheads its `step` requests give a step-by-step replay (default:
    /// `nil`, and a `step` request is answered `not-stepping`).
    public init(limits: ControlLimits = ControlLimits(), steps: ReplaySteps? = nil) {
        self.limits = limits
        self.steps = steps
    }

    /// Opens the socket of a bus with a data directory (does nothing for one without) and serves
    /// it on the process's event loop; returns `control socket PATH`.
    /// - Throws: ``BusError/controlSocket(_:reason:)`` when a live bus listens on the path, the
    ///   path is too long, or the socket cannot be created.
    public func start(on bus: Bus) throws(BusError) -> String? {
        guard let dataDirectory = bus.dataDirectory else { return nil }
        let path = BusServices.socketPath(dataDirectory: dataDirectory)
        let settings = bus.configuration.bus.control
        var limits = limits
        limits.allowedUserIDs.formUnion(settings.allowedUserIDs)
        limits.idleTimeout = settings.idleTimeout
        do {
            let started = try ControlServer.start(path: path, limits: limits, backend: DoorBackend(bus: bus, steps: steps), log: bus.core.log)
            server.withLock { $0 = started }
        } catch {
            throw .controlSocket(path, reason: error.description)
        }
        return "control socket \(path)"
    }

    /// Closes the socket, letting each client take its pending replies for up to `grace`,
    /// and removes the socket file.
    public func stop(grace: Duration) async {
        let server = server.withLock { $0 }
        await server?.shutDown(grace: grace)
    }

    /// Sets ``BusStatistics/control`` while the socket is served.
    public func report(into statistics: inout BusStatistics) {
        if let counters = server.withLock({ $0?.statistics }) { statistics.control = counters }
    }
}
