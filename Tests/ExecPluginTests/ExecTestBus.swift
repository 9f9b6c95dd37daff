import Foundation
import SwitchyardBus
import SwitchyardBusTesting

@testable import ExecPlugin

extension TestBus {
    /// A test bus running `exec` plugins (JSON objects, comma-separated) on real time, since
    /// child processes and restart backoff do; log lines recorded from `info` up.
    static func exec(_ plugins: String, environment: [String: String] = [:]) throws -> TestBus {
        try TestBus(configuration: #"{"plugins": [\#(plugins)]}"#, registry: PluginRegistry(ExecPlugin.self), environment: environment,
                    clock: ContinuousClock(), logLevel: .info)
    }
}


extension Fixtures {
    /// A plugin entry running `script` under `python3 -u`; `extra` adds members (`"a": 1, …`).
    static func entry(_ name: String, _ script: String, arguments: [String] = [], _ extra: String = "") -> String {
        let args = (["-u", path(script)] + arguments).map { JSON.string($0).serialized() }.joined(separator: ", ")
        return #"{"name": "\#(name)", "kind": "exec", "command": "\#(python)", "args": [\#(args)]\#(extra.isEmpty ? "" : ", " + extra)}"#
    }

    /// The pids the plugin `name` reported in `NAME/started`.
    static func startedPids(_ actions: [BusAction], plugin name: String) -> [pid_t] {
        actions.filter { $0.type == "\(name)/started" }.compactMap { $0.payload["pid"]?.intValue.map(pid_t.init) }
    }
}
