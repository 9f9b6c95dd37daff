import Synchronization

/// Whether one reduced batch became durable, and what the committer made of it: resolved once,
/// from any thread, by whoever makes batches durable (the journal's writer), and awaited by the
/// store before it publishes the batch.
///
/// `nil` means durable; a string is why not (the journal's error, naming file and errno). A
/// durable batch carries what was written for it (``written``: the journal's encoded lines),
/// which the store hands on with the batch, so nothing downstream looks it up by id.
@usableFromInline
package final class BatchCommit: Sendable {
    private enum State: Sendable {
        case pending(UnsafeContinuation<String?, Never>?)
        case resolved(String?, written: (any Sendable)?)
    }

    private let state = Mutex(State.pending(nil))

    @usableFromInline
    package init() {}

    /// Records the outcome, with what was written for the batch when it is durable, and resumes
    /// the store if it is waiting; later calls do nothing.
    package func resolve(failure: String?, written: (any Sendable)? = nil) {
        let waiting: UnsafeContinuation<String?, Never>? = state.withLock { state in
            guard case .pending(let continuation) = state else { return nil }
            state = .resolved(failure, written: failure == nil ? written : nil)
            return continuation
        }
        waiting?.resume(returning: failure)
    }

    /// What was written for the batch, once it is resolved durable; `nil` before, after a
    /// failure, or when the committer handed nothing on.
    @usableFromInline
    package var written: (any Sendable)? {
        state.withLock { state in
            guard case .resolved(_, let written) = state else { return nil }
            return written
        }
    }

    /// Waits for the outcome: `nil` when the batch is durable, else the reason it is not. Not
    /// cancellable: a batch's fate must be known before anything about it is published.
    @usableFromInline
    package func wait() async -> String? {
        await withUnsafeContinuation { (continuation: UnsafeContinuation<String?, Never>) in
            let resolved: String?? = state.withLock { state in
                switch state {
                case .resolved(let failure, _):
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
