extension AsyncSequence where Self: Sendable, Element: Sendable {
    /// Consumes this sequence in a new task and returns a handle that cancels it (Combine's
    /// `sink`, with the handle in the role of `AnyCancellable`).
    ///
    /// The iterator is made before this returns, so a `Broadcast` or `CurrentValue` (and every
    /// operator over them) is subscribed already: an element sent right after `sink` returns
    /// is received. `receiveValue` runs for each element in order, then `receiveCompletion`
    /// once with how the sequence ended (`.finished` also when the handle was cancelled).
    ///
    /// Cancelling the handle, or releasing its last reference, cancels the task; ``StreamSink/finished``
    /// waits for the end.
    ///
    /// ```swift
    /// let handle = model.rates.sink { rates in label.text = rates.summary }
    /// model.reload()        // received: the sink is subscribed already
    /// ```
    public func sink(
        receiveCompletion: @escaping @Sendable (StreamCompletion<Failure>) async -> Void = { _ in },
        receiveValue: @escaping @Sendable (Element) async -> Void
    ) -> StreamSink {
        let iterator = makeAsyncIterator()
        let task = Task {
            var iterator = iterator
            let end = await drain(&iterator) { element in
                await receiveValue(element)
                return true
            }
            switch end {
            case .success: await receiveCompletion(.finished)
            case .failure(let failure): await receiveCompletion(.failure(failure))
            }
        }
        return StreamSink(task: task)
    }
}

/// How a consumed sequence ended, for `sink(receiveCompletion:receiveValue:)`.
public enum StreamCompletion<Failure: Error> {
    /// The sequence finished, or its consumer was cancelled.
    case finished
    /// The sequence failed.
    case failure(Failure)
}

extension StreamCompletion: Sendable where Failure: Sendable {}

/// The handle of a running `sink`: cancels its task when ``cancel()`` is called or the last
/// reference is released.
public final class StreamSink: Sendable {
    @usableFromInline let task: Task<Void, Never>

    @usableFromInline init(task: Task<Void, Never>) {
        self.task = task
    }

    deinit {
        task.cancel()
    }

    /// Stops consuming; idempotent. `receiveCompletion` still runs with `.finished`.
    public func cancel() {
        task.cancel()
    }

    /// Whether ``cancel()`` was called (or the handle released).
    public var isCancelled: Bool {
        task.isCancelled
    }

    /// Waits until the sink has handled the end of its sequence.
    public var finished: Void {
        get async { await task.value }
    }
}
