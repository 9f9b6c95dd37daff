import Synchronization

/// Whether one reduced batch became durable, and what the committer made of it: resolved once,
/// from any thread, by whoever makes batches durable (the journal's writer), and awaited by the
/// store before it delivers the batch.
///
/// `nil` means durable; a string is why not (the journal's error, naming file and errno). A
/// durable batch carries what was written for it (``written``: the bus's journal hands on its
/// encoded lines), which the store hands on with the batch, so nothing downstream looks it up
/// by id. `Written` is the committer's type for it (its sink's ``BatchSink/Written``), so the
/// batch's reader gets it typed, never by a cast that could silently fail.
@usableFromInline
package final class BatchCommit<Written: Sendable>: Sendable {
    private enum State: Sendable {
        case pending(UnsafeContinuation<String?, Never>?, whenDurable: (@Sendable () -> Void)?)
        case resolved(String?, written: Written?)
    }

    private let state = Mutex(State.pending(nil, whenDurable: nil))

    @usableFromInline
    package init() {}

    /// Records the outcome, with what was written for the batch when it is durable; runs the
    /// ``whenDurable(_:)`` work on the resolving thread when the batch is durable, then resumes
    /// the store if it is waiting. Later calls do nothing.
    package func resolve(failure: String?, written: Written? = nil) {
        let (waiting, durableWork) = state.withLock { state -> (UnsafeContinuation<String?, Never>?, (@Sendable () -> Void)?) in
            guard case .pending(let continuation, let work) = state else { return (nil, nil) }
            state = .resolved(failure, written: failure == nil ? written : nil)
            return (continuation, failure == nil ? work : nil)
        }
        durableWork?()
        // Released before the store resumes, so the batch's buffers it held are unique again
        // for the store to reuse.
        _ = consume durableWork
        waiting?.resume(returning: failure)
    }

    /// Runs `work` once the batch is durable: on the thread that resolves it (the journal's
    /// writer), before the store's ``wait()`` returns, or at once when it already is durable;
    /// never when the batch failed. The store publishes the batch's state and answers its
    /// senders this way, without waiting for its own task to be scheduled.
    @usableFromInline
    package func whenDurable(_ work: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state -> Bool in
            switch state {
            case .pending(let continuation, _):
                state = .pending(continuation, whenDurable: work)
                return false
            case .resolved(let failure, _):
                return failure == nil
            }
        }
        if runNow { work() }
    }

    /// What was written for the batch, once it is resolved durable; `nil` before, after a
    /// failure, or when the committer handed nothing on.
    @usableFromInline
    package var written: Written? {
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
                case .pending(_, let work):
                    state = .pending(continuation, whenDurable: work)
                    return .none
                }
            }
            if case .some(let failure) = resolved { continuation.resume(returning: failure) }
        }
    }
}
