import Synchronization

/// The go-aheads of a step-by-step replay (`switchyard replay --step`): before each recorded
/// action the feed waits (``next()``) until someone lets one action through — a line on stdin
/// (``permit()``) or a control client's `{"op":"step"}` (``request(_:)``) — and a control
/// client is answered once that action is reduced (``replayed(recorded:type:id:)``), or with
/// ``Answer/finished`` when the replay ends first.
///
/// Requests are served in arrival order; a go-ahead given while no action waits is kept for
/// the next one, so a client may ask for several steps at once. Nothing waits forever: ending
/// the replay (``finish()``) answers every request still waiting.
public final class ReplaySteps: Sendable, Hashable {
    /// What a control client's step request is answered with.
    public enum Answer: Sendable, Hashable {
        /// The recorded action `recorded` (of `type`) was replayed and reduced as `id`.
        case replayed(recorded: UInt64, type: String, id: UInt64)
        /// The replay ended (the last action was replayed, or it stopped) before another step.
        case finished
    }

    private struct State: Sendable {
        var permits = 0
        var requests: [@Sendable (Answer) -> Void] = []
        var feed: CheckedContinuation<Bool, Never>?
        /// The request that let the action in flight through; `.some(nil)` for a permit.
        var inFlight: (@Sendable (Answer) -> Void)?
        var finished = false
    }

    private let state = Mutex(State())

    /// Steps with nothing allowed yet.
    public init() {}

    /// Lets one action through, answering nobody (a line on stdin).
    public func permit() {
        let feed = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            guard !state.finished else { return nil }
            guard let feed = state.feed else {
                state.permits += 1
                return nil
            }
            state.feed = nil
            state.inFlight = nil
            return feed
        }
        feed?.resume(returning: true)
    }

    /// Lets one action through and calls `answer` once it is replayed, or with
    /// ``Answer/finished`` when the replay ends first (at once when it already has).
    public func request(_ answer: @escaping @Sendable (Answer) -> Void) {
        let (feed, finished) = state.withLock { state -> (CheckedContinuation<Bool, Never>?, Bool) in
            guard !state.finished else { return (nil, true) }
            guard let feed = state.feed else {
                state.requests.append(answer)
                return (nil, false)
            }
            state.feed = nil
            state.inFlight = answer
            return (feed, false)
        }
        if finished { answer(.finished) }
        feed?.resume(returning: true)
    }

    /// The feed's wait before an action: `true` once it may go, `false` when the replay
    /// ended or the task was cancelled.
    public func next() async -> Bool {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let go = state.withLock { state -> Bool? in
                    if state.finished { return false }
                    if !state.requests.isEmpty {
                        state.inFlight = state.requests.removeFirst()
                        return true
                    }
                    if state.permits > 0 {
                        state.permits -= 1
                        state.inFlight = nil
                        return true
                    }
                    state.feed = continuation
                    return nil
                }
                if let go { continuation.resume(returning: go) }
            }
        } onCancel: {
            finish()
        }
    }

    /// The action let through last was replayed as `id`: answers the request that let it through.
    public func replayed(recorded: UInt64, type: String, id: UInt64) {
        let answer = state.withLock { state -> (@Sendable (Answer) -> Void)? in
            defer { state.inFlight = nil }
            return state.inFlight
        }
        answer?(.replayed(recorded: recorded, type: type, id: id))
    }

    /// The replay is over: the feed's wait ends with `false`, and every request waiting, or
    /// made from now on, is answered ``Answer/finished``.
    public func finish() {
        let (feed, waiting) = state.withLock { state -> (CheckedContinuation<Bool, Never>?, [@Sendable (Answer) -> Void]) in
            state.finished = true
            var waiting = state.requests
            if let inFlight = state.inFlight { waiting.insert(inFlight, at: 0) }
            state.requests = []
            state.inFlight = nil
            defer { state.feed = nil }
            return (state.feed, waiting)
        }
        feed?.resume(returning: false)
        for answer in waiting { answer(.finished) }
    }

    /// Steps are the same object.
    public static func == (lhs: ReplaySteps, rhs: ReplaySteps) -> Bool { lhs === rhs }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }
}
