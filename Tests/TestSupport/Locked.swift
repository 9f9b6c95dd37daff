import Synchronization

/// A value shared between threads and tasks (a test's peer thread and the test, a blocking
/// client's thread and the task awaiting it): a copyable handle on a `Mutex`.
public final class Locked<Value: Sendable>: Sendable {
    private let value: Mutex<Value>

    /// A handle on `value`.
    public init(_ value: Value) {
        self.value = Mutex(value)
    }

    /// Runs `body` on the value under the lock and returns its result.
    public func withLock<T: Sendable>(_ body: (inout Value) -> T) -> T {
        value.withLock { body(&$0) }
    }
}
