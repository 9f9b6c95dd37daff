import Switchyard
import Synchronization
import Testing

/// A one-shot gate holding effects until a test opens it; deaf to cancellation on purpose, so
/// tests can prove a cancelled effect's late output is discarded by the store.
final class Gate: Sendable {
    private let opened = CurrentValue(false)

    func open() { opened.send(true) }

    func wait() async {
        for await isOpen in opened.subscribe() where isOpen { return }
    }
}

/// Collects the store's diagnostic lines.
final class LogLines: Sendable {
    private let lines = Mutex<[String]>([])

    var all: [String] { lines.withLock { $0 } }

    var sink: @Sendable (String) -> Void { { line in self.lines.withLock { $0.append(line) } } }
}

/// Waits until `condition` holds, polling with yields, for up to `seconds` (generous: the
/// machine is busy); records an issue when it never does.
func waitUntil(
    _ what: String, seconds: Double = 60, sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: () -> Bool
) async {
    let clock = ContinuousClock()
    let deadline = clock.now + .milliseconds(Int(seconds * 1000))
    while !condition() {
        if clock.now > deadline {
            Issue.record("timed out waiting until \(what)", sourceLocation: sourceLocation)
            return
        }
        try? await clock.sleep(for: .milliseconds(1))
    }
}

/// Runs `body`, failing the test (instead of hanging the suite) if it takes over `seconds`.
func withDeadline<T: Sendable>(
    _ seconds: Int = 60, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: @escaping @Sendable () async -> T
) async -> T? {
    await withTaskGroup(of: T?.self) { group in
        group.addTask { await body() }
        group.addTask {
            try? await Task.sleep(for: .seconds(seconds))
            return nil
        }
        let first = await group.next() ?? nil
        group.cancelAll()
        if first == nil { Issue.record("did not finish within \(seconds) s (deadlock?)", sourceLocation: sourceLocation) }
        return first
    }
}
