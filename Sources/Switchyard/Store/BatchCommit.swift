import Synchronization

/// Whether one reduced batch became durable: resolved once, from any thread, by whoever makes
/// batches durable (the journal's writer), and awaited by the store before it publishes the
/// batch.
///
/// `nil` means durable; a string is why not (the journal's error, naming file and errno).
@usableFromInline
package final class BatchCommit: Sendable {
    private enum State: Sendable {
        case pending(UnsafeContinuation<String?, Never>?)
        case resolved(String?)
    }

    private let state = Mutex(State.pending(nil))

    @usableFromInline
    package init() {}

    /// Records the outcome and resumes the store if it is waiting; later calls do nothing.
    package func resolve(failure: String?) {
        let waiting: UnsafeContinuation<String?, Never>? = state.withLock { state in
            guard case .pending(let continuation) = state else { return nil }
            state = .resolved(failure)
            return continuation
        }
        waiting?.resume(returning: failure)
    }

    /// Waits for the outcome: `nil` when the batch is durable, else the reason it is not. Not
    /// cancellable: a batch's fate must be known before anything about it is published.
    @usableFromInline
    package func wait() async -> String? {
        await withUnsafeContinuation { (continuation: UnsafeContinuation<String?, Never>) in
            let resolved: String?? = state.withLock { state in
                switch state {
                case .resolved(let failure):
                    return .some(failure)
                case .pending:
                    state = .pending(continuation)
                    return .none
                }
            }
            if case .some(let failure) = resolved { continuation.resume(returning: failure) }
        }
    }
}
