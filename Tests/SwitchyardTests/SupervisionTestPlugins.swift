import SwitchyardBus
import Synchronization

/// Plugin kinds for the supervision tests: one that ignores cancellation, one that always throws.

/// Records its start, then waits on a gate that cancellation does not open, as a plugin blocked
/// in a call that ignores cancellation would; ``release()`` lets every instance end.
struct StubbornPlugin: Plugin {
    static let kind = "stubborn"
    static let summary = "Ignores cancellation."
    static let settingDescriptions: [SettingDescription] = []
    private static let gate = Mutex<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))
    static let started = Mutex(Set<String>())

    init(name: String, settings: PluginSettings) throws {
        try settings.finish()
    }

    /// Lets every stubborn plugin's `run` return, so no test leaves one behind.
    static func release() {
        let waiters = gate.withLock { gate in
            gate.open = true
            defer { gate.waiters = [] }
            return gate.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    func run(context: PluginContext) async throws {
        Self.started.withLock { _ = $0.insert(context.name) }
        await withCheckedContinuation { continuation in
            let open = Self.gate.withLock { gate in
                if !gate.open { gate.waiters.append(continuation) }
                return gate.open
            }
            if open { continuation.resume() }
        }
    }
}

/// Throws from every `run`, counting its attempts by name.
struct ThrowingPlugin: Plugin {
    static let kind = "throwing"
    static let summary = "Always fails."
    static let settingDescriptions: [SettingDescription] = []
    static let attempts = Mutex([String: Int]())

    struct Failure: Error, CustomStringConvertible {
        var description: String { "always fails" }
    }

    init(name: String, settings: PluginSettings) throws {
        try settings.finish()
    }

    func run(context: PluginContext) async throws {
        Self.attempts.withLock { $0[context.name, default: 0] += 1 }
        throw Failure()
    }
}

func supervisionRegistry() -> PluginRegistry {
    var registry = testRegistry()
    registry.register(StubbornPlugin.self)
    registry.register(ThrowingPlugin.self)
    return registry
}
