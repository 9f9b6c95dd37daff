import Synchronization

/// Carries elements from the loop into Swift concurrency: the loop ``yield(_:)``s, one task
/// iterates, and a ``WatermarkBuffer`` decides when the loop must stop producing and when it
/// may go on (`onResume`, called from the consumer's task, typically fires a ``LoopSignal``).
///
/// Nothing is dropped: a paused producer that still yields is kept, and a consumer that went
/// away (cancelled, or the sequence released) is reported as ``YieldResult/terminated``.
package final class AsyncBridge<Element: Sendable>: AsyncSequence, Sendable {
    /// What the producer should do after a yield.
    package enum YieldResult: Sendable, Hashable {
        /// Keep producing.
        case more
        /// Stop until `onResume` runs.
        case pause
        /// The consumer is gone; the element was not delivered.
        case terminated
    }

    private struct State: Sendable {
        var buffer: WatermarkBuffer<Element>
        var finished = false
        var terminated = false
        var waiter: CheckedContinuation<Element?, Never>?
    }

    private let state: Mutex<State>
    private let onResume: @Sendable () -> Void

    /// Creates a bridge that pauses the producer at `highWatermark` waiting elements and
    /// resumes it at `lowWatermark`.
    package init(highWatermark: Int, lowWatermark: Int, onResume: @escaping @Sendable () -> Void) {
        state = Mutex(State(buffer: WatermarkBuffer(highWatermark: highWatermark, lowWatermark: lowWatermark)))
        self.onResume = onResume
    }

    /// Hands `element` to the consumer.
    package func yield(_ element: Element) -> YieldResult {
        let (waiter, result) = state.withLock { state -> (CheckedContinuation<Element?, Never>?, YieldResult) in
            guard !state.terminated, !state.finished else { return (nil, .terminated) }
            if let waiter = state.waiter {
                state.waiter = nil
                return (waiter, .more)
            }
            return (nil, state.buffer.push(element) == .pause ? .pause : .more)
        }
        waiter?.resume(returning: element)
        return result
    }

    /// Ends the sequence after the elements already yielded.
    package func finish() {
        let waiter = state.withLock { state in
            state.finished = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: nil)
    }

    /// Whether the consumer has gone away.
    package var isTerminated: Bool { state.withLock { $0.terminated } }

    /// Whether the producer should be paused now: what a producer that cannot act on a
    /// ``YieldResult`` at once (it reads in chunks) asks before reading on.
    package var isProducerPaused: Bool { state.withLock { $0.buffer.isProducerPaused } }

    private func next() async -> Element? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Element?, Never>) in
                let (element, resume, ready) = state.withLock { state -> (Element?, Bool, Bool) in
                    let (element, resume) = state.buffer.pop()
                    if element != nil || state.finished || state.terminated { return (element, resume, true) }
                    state.waiter = continuation
                    return (nil, false, false)
                }
                if resume { onResume() }
                if ready { continuation.resume(returning: element) }
            }
        } onCancel: {
            terminate()
        }
    }

    /// Marks the consumer gone; a paused producer is resumed so its next yield learns it.
    private func terminate() {
        let (waiter, paused) = state.withLock { state in
            state.terminated = true
            defer { state.waiter = nil }
            return (state.waiter, state.buffer.isProducerPaused)
        }
        waiter?.resume(returning: nil)
        if paused { onResume() }
    }

    /// The consumer's iterator; one consumer per bridge.
    package struct AsyncIterator: AsyncIteratorProtocol {
        let bridge: AsyncBridge

        /// The next element, or `nil` once finished or when the task is cancelled.
        package mutating func next() async -> Element? {
            await bridge.next()
        }
    }

    package func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(bridge: self)
    }
}
