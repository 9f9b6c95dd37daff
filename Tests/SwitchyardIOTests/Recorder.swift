import Synchronization

/// Collects values from the loop's thread for a test to check.
final class Recorder<Value: Sendable>: Sendable {
    private let values = Mutex<[Value]>([])

    func append(_ value: Value) {
        values.withLock { $0.append(value) }
    }

    var all: [Value] { values.withLock { $0 } }
    var count: Int { values.withLock { $0.count } }
}
