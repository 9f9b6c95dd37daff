import Foundation
import SwitchyardBus
import SwitchyardTestSupport

/// Two-bus set-ups for the end-to-end tests: configs, emitters and the processes.
struct Fleet {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    /// An `exec` plugin entry that waits for the file `trigger` in the fleet's directory, then
    /// emits `count` actions of `type` with payload `{"n": i}` (pausing `pause` seconds
    /// between them, and padding the first with `padding` bytes), then idles until stopped.
    func emitter(_ type: String, count: Int, trigger: String, pause: Double = 0, padding: Int = 0) -> String {
        let triggerPath = directory.path(trigger)
        let script = """
            while [ ! -e "$0" ]; do sleep 0.02; done
            i=1
            while [ $i -le \(count) ]; do
              if [ $i -eq 1 ] && [ \(padding) -gt 0 ]; then
                pad=$(head -c \(padding) /dev/zero | tr '\\0' x)
                echo "{\\"type\\":\\"\(type)\\",\\"payload\\":{\\"n\\":$i,\\"pad\\":\\"$pad\\"}}"
              else
                echo "{\\"type\\":\\"\(type)\\",\\"payload\\":{\\"n\\":$i}}"
              fi
              \(pause > 0 ? "sleep \(pause)" : ":")
              i=$((i+1))
            done
            exec cat > /dev/null
            """
        let args = JSON.array([.string("-c"), .string(script), .string(triggerPath)]).serialized()
        return #"{"name": "emit", "kind": "exec", "command": "/bin/sh", "args": \#(args)}"#
    }

    /// Like ``emitter(_:count:trigger:pause:padding:)`` without pauses, but the trigger is
    /// consumed: a restarted bus does not emit again.
    func onceEmitter(_ type: String, count: Int, trigger: String) -> String {
        let script = """
            while ! mv "$0" "$0.used" 2>/dev/null; do sleep 0.02; done
            i=1
            while [ $i -le \(count) ]; do
              echo "{\\"type\\":\\"\(type)\\",\\"payload\\":{\\"n\\":$i}}"
              i=$((i+1))
            done
            exec cat > /dev/null
            """
        let args = JSON.array([.string("-c"), .string(script), .string(directory.path(trigger))]).serialized()
        return #"{"name": "emit", "kind": "exec", "command": "/bin/sh", "args": \#(args)}"#
    }

    /// A `nats` plugin entry named `fleet` with fast reconnects; `extra` adds members.
    static func bridge(url: String, _ extra: String) -> String {
        #"{"name": "fleet", "kind": "nats", "url": "\#(url)", "reconnectDelay": 0.05, "maxReconnectDelay": 0.5, \#(extra)}"#
    }

    /// Starts bus `name` with `plugins` and a `nats` plugin named `fleet` on `server`
    /// (``bridge(url:_:)``: publishing the actions matching `publish`, subscribed to `subject`),
    /// and returns once the bridge reports connected: the set-up of the tests that put a bus
    /// on a server and feed it.
    func startBridge(
        _ name: String, on server: NATSServer, subscribing subject: String, publish: String = "none/*", plugins: [String] = []
    ) async throws -> BusProcess {
        let members = #""publish": "\#(publish)", "subscribe": "\#(subject)""#
        let bus = try start(name, plugins + [Self.bridge(url: server.url, members)])
        await bus.wait("\(name) to connect") { $0.statuses.last == "connected" }
        return bus
    }

    /// Writes the config of bus `name` with `plugins` and a JSON logger, and starts it.
    func start(_ name: String, _ plugins: [String], bus: String = "", environment: [String: String] = [:]) throws -> BusProcess {
        let log = directory.path("\(name).jsonl")
        let entries = plugins + [#"{"name": "log", "kind": "logger", "format": "json", "to": "\#(log)"}"#]
        let config = try directory.write("\(name).json", """
            {"bus": {"name": "\(name)", "dataDirectory": "\(directory.path("data-" + name))", "stopTimeout": 30\(bus.isEmpty ? "" : ", " + bus)},
             "plugins": [\(entries.joined(separator: ",\n  "))]}
            """)
        return try BusProcess(config: config, actionLog: log, directory: directory.url, environment: environment)
    }

    /// Creates the file `name` in the fleet's directory (a trigger).
    func touch(_ name: String) throws {
        try directory.write(name, "")
    }
}
