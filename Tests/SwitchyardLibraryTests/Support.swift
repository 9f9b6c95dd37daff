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
