import Foundation
import Switchyard
import Synchronization

@testable import ExecPlugin

/// Records every action a subscription yields, and lets a test wait until enough matching
/// actions have been recorded, without sleeping.
final class ActionRecorder: Sendable {
    private struct Waiter: Sendable {
        let matches: @Sendable (BusAction) -> Bool
        var remaining: Int
        let continuation: CheckedContinuation<[BusAction], Never>
    }

    private struct State: Sendable {
        var actions: [BusAction] = []
        var waiters: [Waiter] = []
        var isFinished = false
    }

    private let state = Mutex(State())

    /// Starts recording `actions` in a task of its own.
    static func start(_ actions: PluginActions) -> ActionRecorder {
        let recorder = ActionRecorder()
        Task {
            for await action in actions {
                recorder.record(action)
            }
            recorder.finish()
        }
        return recorder
    }

    /// Waits until `count` recorded actions match (or the subscription ended), and returns
    /// every action recorded by then.
    func wait(until matches: @escaping @Sendable (BusAction) -> Bool, count: Int = 1) async -> [BusAction] {
        await withCheckedContinuation { continuation in
            let ready: [BusAction]? = state.withLock { state in
                let remaining = count - state.actions.count(where: matches)
                if state.isFinished || remaining <= 0 { return state.actions }
                state.waiters.append(Waiter(matches: matches, remaining: remaining, continuation: continuation))
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// Waits until an action of `type` has been recorded `count` times.
    func wait(for type: String, count: Int = 1) async -> [BusAction] {
        await wait(until: { $0.type == type }, count: count)
    }

    /// Waits until the subscription ends (the bus stopped) and returns every action.
    func finished() async -> [BusAction] {
        await wait(until: { _ in false })
    }

    private func record(_ action: BusAction) {
        let satisfied: ([Waiter], [BusAction]) = state.withLock { state in
            state.actions.append(action)
            var done: [Waiter] = []
            state.waiters = state.waiters.compactMap { waiter in
                var waiter = waiter
                if waiter.matches(action) { waiter.remaining -= 1 }
                guard waiter.remaining <= 0 else { return waiter }
                done.append(waiter)
                return nil
            }
            return (done, done.isEmpty ? [] : state.actions)
        }
        for waiter in satisfied.0 {
            waiter.continuation.resume(returning: satisfied.1)
        }
    }

    private func finish() {
        let (waiters, actions) = state.withLock { state in
            state.isFinished = true
            defer { state.waiters = [] }
            return (state.waiters, state.actions)
        }
        for waiter in waiters {
            waiter.continuation.resume(returning: actions)
        }
    }
}

/// The bus log lines a test captured.
final class LogLines: Sendable {
    private let lines = Mutex<[String]>([])

    /// A sink appending every line from `info` up.
    var sink: LogSink {
        LogSink(minimumLevel: .info) { [self] line in lines.withLock { $0.append(line) } }
    }

    /// The lines so far.
    var all: [String] { lines.withLock { $0 } }
}

/// A bus running `exec` plugins over the fixtures, with everything it does recorded.
struct BusHarness {
    let bus: Bus
    let recorder: ActionRecorder
    let log: LogLines
    let running: Task<Void, any Error>

    /// Starts a bus with the given plugin entries (JSON objects, comma-separated).
    static func start(_ plugins: String, environment: [String: String] = [:], busSettings: String = "{}") throws -> BusHarness {
        var registry = PluginRegistry()
        registry.register(ExecPlugin.self)
        let configuration = try BusConfiguration.parse(
            #"{"bus": \#(busSettings), "plugins": [\#(plugins)]}"#,
            file: "exec-test.json",
            environment: environment,
            knownKinds: registry.kinds
        )
        let log = LogLines()
        let bus = try Bus(configuration: configuration, registry: registry, log: log.sink)
        let recorder = ActionRecorder.start(bus.actions(matching: .all, bufferSize: 1 << 16))
        let running = Task { try await bus.run() }
        return BusHarness(bus: bus, recorder: recorder, log: log, running: running)
    }

    /// Stops the bus and returns every action it reduced.
    func stop() async throws -> [BusAction] {
        bus.stop()
        try await running.value
        return await recorder.finished()
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
