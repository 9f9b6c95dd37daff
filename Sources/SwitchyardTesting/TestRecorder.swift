import Synchronization

/// Consumes an asynchronous sequence in its own task and records what arrives, so a test can
/// wait for a number of elements or for the end instead of sleeping.
///
/// The recorder makes the sequence's iterator before its initializer returns, so everything the
/// sequence subscribes to is subscribed by then, and consumes it in its own task. ``cancel()``
/// (or releasing the recorder) cancels that task; the sequence then normally ends, recorded as
/// ``Completion/finished``.
///
/// ```swift
/// let recorder = TestRecorder(source.removeDuplicates())
/// source.send(1); source.send(1); source.send(2); source.finish()
/// #expect(await recorder.waitForCompletion() == .finished)
/// #expect(recorder.elements == [1, 2])
/// ```
public final class TestRecorder<Element: Sendable, Failure: Error>: Sendable {
    /// How the recorded sequence ended.
    public enum Completion: Sendable {
        /// It returned `nil`.
        case finished
        /// It threw.
        case failed(Failure)
    }

    private struct State {
        var elements: [Element] = []
        var completion: Completion?
        var waiters: [UInt64: (count: Int?, continuation: UnsafeContinuation<Void, Never>)] = [:]
        var waits = PendingWaits()

        mutating func satisfiedWaiters() -> [UnsafeContinuation<Void, Never>] {
            let met = waiters.filter { isSatisfied($0.value.count) }
            for id in met.keys { waiters[id] = nil }
            return met.map(\.value.continuation)
        }

        func isSatisfied(_ count: Int?) -> Bool {
            completion != nil || count.map { elements.count >= $0 } ?? false
        }
    }

    /// The records live apart from the recorder so the consuming task does not keep the
    /// recorder alive; releasing the recorder cancels the task.
    private final class Records: Sendable {
        let state = Mutex(State())
    }

    private let records = Records()
    private let task = Mutex<Task<Void, Never>?>(nil)

    /// Makes `sequence`'s iterator and starts consuming it in a new task.
    public init<Recorded: AsyncSequence & Sendable>(_ sequence: Recorded)
    where Recorded.Element == Element, Recorded.Failure == Failure {
        let iterator = sequence.makeAsyncIterator()
        let consumer = Task { [records] in
            var iterator = iterator
            var completion = Completion.finished
            do throws(Failure) {
                while let element = try await iterator.next(isolation: nil) {
                    let waiters = records.state.withLock { state in
                        state.elements.append(element)
                        return state.satisfiedWaiters()
                    }
                    for waiter in waiters { waiter.resume() }
                }
            } catch {
                completion = .failed(error)
            }
            let waiters = records.state.withLock { state in
                state.completion = completion
                return state.satisfiedWaiters()
            }
            for waiter in waiters { waiter.resume() }
        }
        task.withLock { $0 = consumer }
    }

    /// The elements recorded so far, in arrival order.
    public var elements: [Element] { records.state.withLock { $0.elements } }

    /// How the sequence ended, or `nil` while it runs.
    public var completion: Completion? { records.state.withLock { $0.completion } }

    /// Suspends until at least `count` elements were recorded or the sequence ended, and
    /// returns the elements recorded by then. Returns early when the waiting task is cancelled.
    @discardableResult
    public func waitForElements(count: Int) async -> [Element] {
        await wait(for: count)
        return elements
    }

    /// Suspends until the sequence ended and returns how (``Completion/finished`` when the
    /// waiting task is cancelled first).
    @discardableResult
    public func waitForCompletion() async -> Completion {
        await wait(for: nil)
        return completion ?? .finished
    }

    /// Cancels the consuming task.
    public func cancel() {
        task.withLock { $0 }?.cancel()
    }

    deinit {
        cancel()
    }

    /// Waits until `count` elements arrived (`nil`: until the end); returns early on cancellation.
    private func wait(for count: Int?) async {
        let id = records.state.withLock { $0.waits.makeID() }
        await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
                let resumeNow = records.state.withLock { state in
                    let cancelled = state.waits.register(id)
                    if cancelled || state.isSatisfied(count) { return true }
                    state.waiters[id] = (count, continuation)
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let waiter = records.state.withLock { state in
                state.waits.cancelEarly(id)
                return state.waiters.removeValue(forKey: id)
            }
            waiter?.continuation.resume()
        }
    }
}

extension TestRecorder.Completion: Equatable where Failure: Equatable {}
