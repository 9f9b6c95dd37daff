import Synchronization

/// Lines a `drop-oldest` watcher lost and has not yet been told of, shared by its action and
/// state streams.
final class LossCounter: Sendable {
    private let count = Mutex(0)

    /// Records `lines` more lost lines.
    func add(_ lines: Int) {
        count.withLock { $0 += lines }
    }

    /// Whether lost lines wait to be reported.
    var hasLines: Bool {
        count.withLock { $0 > 0 }
    }

    /// The lost lines not yet reported, and resets the count; `nil` when there are none.
    func take() -> Int? {
        count.withLock { count in
            defer { count = 0 }
            return count > 0 ? count : nil
        }
    }
}
