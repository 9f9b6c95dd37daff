import FoundationEssentials
import SwitchyardStreams

/// The dashboard and the read-only HTTP API over a recording: a data directory whose bus is
/// not running (a bug report's journal, a replay's output), served by `switchyard inspect`.
///
/// No plugin runs and nothing is written: the state "now" is the state after the journal's
/// last action, the feed and the maps read the journal, the timeline, `state?at=`, `why` and
/// `diff` work as on a live bus. `POST /api/dispatch` is refused (403 `read-only`).
public final class RecordingDoor: Sendable {
    private let server: HTTPServer

    /// Listens on `listen` (`HOST:PORT`, a loopback address: the door has no token) and serves
    /// `history`'s recording, showing `plugins` (name and kind, from the configuration that
    /// recorded it) in the plugins table and a map for each whose kind has a position source.
    /// - Throws: ``BusError/httpServer(_:reason:)`` for an address that is not a numeric
    ///   loopback `HOST:PORT` or cannot be listened on; ``HistoryError`` when the journal is
    ///   empty or cannot be read (its end is read once, as the present).
    public init(history: StateHistory, busName: String, plugins: [(name: String, kind: String)], registry: PluginRegistry,
                listen: String, log: LogSink) throws {
        guard let (host, port) = HTTPSettings.parseListen(listen) else {
            throw BusError.httpServer(listen, reason: "expected HOST:PORT with a numeric address, such as 127.0.0.1:8080")
        }
        let settings = HTTPSettings(host: host, port: port)
        guard settings.isLoopback else {
            throw BusError.httpServer(listen, reason: "inspect serves without a token, so only on a loopback address (127.0.0.1 or ::1)")
        }
        let present = try history.moment(at: .id(history.latestID()))
        var backend = Self.backend(history, present: present, busName: busName, plugins: plugins)
        backend.dashboard = Array(DashboardPage.html(positionSources: registry.positionSources).utf8)
        do {
            server = try HTTPServer.start(settings: settings, limits: HTTPLimits(settings: settings), backend: backend, log: log)
        } catch {
            throw BusError.httpServer(settings.authority, reason: error.description)
        }
    }

    /// The dashboard's address, `http://127.0.0.1:8080/`.
    public var url: String { server.url }

    /// Closes the listener and every connection, letting each take its pending bytes for up to `grace`.
    public func stop(grace: Duration = .seconds(1)) async {
        await server.shutDown(grace: grace)
    }

    /// A backend whose present is `present` (the journal's end) and whose live streams never send.
    static func backend(_ history: StateHistory, present: StateHistory.Moment, busName: String, plugins: [(name: String, kind: String)]) -> DoorBackend {
        let silentLines = Broadcast<ActionLine>()
        let silentStates = Broadcast<JSON>()
        let last = Int64(clamping: present.action.id)
        let listed = JSON.array(plugins.map { ["name": .string($0.name), "kind": .string($0.kind), "status": "recorded"] })
        return DoorBackend(
            // The router refuses dispatches of a read-only backend before they get here; only
            // the control socket hands over turns, and a recording has none.
            dispatch: { actions, completion in
                for _ in actions { completion(.stopping) }
                return true
            },
            dispatchTurn: { _ in 0 },
            state: { present.state },
            actions: { _, bufferSize, overflow in silentLines.subscribe(bufferSize: bufferSize, overflow: overflow) },
            states: { silentStates.subscribe(bufferSize: 1, overflow: .latest) },
            statistics: {
                ["name": .string(busName + " (recording)"), "actions": .integer(last), "plugins": listed,
                 "journal": ["lastSequence": .integer(last), "directory": .string(history.dataDirectory)]]
            },
            readiness: { (true, []) },
            metrics: { "" },
            nextActionID: { present.action.id + 1 },
            journalDirectory: history.dataDirectory,
            history: history,
            readOnly: true
        )
    }
}
