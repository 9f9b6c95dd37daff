import Switchyard
import Synchronization
import Testing

/// How strictly a ``TestStore`` checks.
public enum Exhaustivity: Sendable, Hashable {
    /// Every state change must be asserted, every action middleware emits received, and every
    /// effect finished by ``TestStore/finish(sourceLocation:)``.
    case on
    /// Only what a test asserts is checked: unmentioned state changes and unreceived actions
    /// pass.
    case off
}

/// A store for tests in the spirit of TCA's: send an action and state how the state changes,
/// receive the actions middleware emits, with effects on a ``ManualClock``.
///
/// A failed check is recorded with Swift Testing's `Issue.record` at the caller's line, with a
/// line diff of expected and actual state. Waiting (for a received action, for effects to end)
/// is bounded by `timeout` of real time (default 1 s, as TCA's, multiplied by the environment
/// variable `SWITCHYARD_TEST_TIMEOUT_SCALE` like the ``ManualClock``'s waits) — a deadline
/// for a busy machine, never a speed. ``finish(sourceLocation:)`` does not wait for effects that
/// only the clock can wake: once every effect in flight sleeps on the clock, it fails at once.
///
/// ```swift
/// let store = TestStore(initialState: Counter(), reducer: counterReducer, middleware: [timer(clock)], clock: clock)
/// await store.send(.start) { $0.running = true }
/// await store.advance(by: .seconds(1))
/// await store.receive(.tick) { $0.count = 1 }
/// await store.send(.stop) { $0.running = false }
/// await store.finish()
/// ```
public final class TestStore<State: Sendable & Equatable, Action: Sendable & Equatable>: Sendable {
    private struct Reduction: Sendable {
        var action: Action
        var state: State
    }

    private struct Progress: Sendable {
        var log: [Reduction] = []
        /// Reductions already checked by `send` or `receive`.
        var checked = 0
        var state: State
    }

    /// The store under test (a real ``Store``: its inbox, middleware and effects).
    public let store: Store<State, Action>
    /// The clock to give the middleware; ``advance(by:)`` moves it.
    public let clock: ManualClock
    /// How strictly this store checks. Default ``Exhaustivity/on``.
    public let exhaustivity: Exhaustivity
    private let timeout: Duration
    private let box: ProgressBox

    /// The progress shared with the recording reducer.
    private final class ProgressBox: Sendable {
        let progress: Mutex<Progress>

        init(_ progress: Progress) {
            self.progress = Mutex(progress)
        }
    }

    /// Creates a test store whose reducer and middleware are those of the store under test.
    public init(
        initialState: State,
        reducer: @escaping @Sendable (inout State, Action) -> Void,
        middleware: [Middleware<State, Action>] = [],
        clock: ManualClock = ManualClock(),
        exhaustivity: Exhaustivity = .on,
        timeout: Duration = .seconds(1)
    ) {
        let box = ProgressBox(Progress(state: initialState))
        self.box = box
        self.clock = clock
        self.exhaustivity = exhaustivity
        self.timeout = timeout * RealTimeScale.factor
        // Each reduction is recorded with the state right after it: effects run concurrently,
        // so the store's current state may already be later than the action checked.
        store = Store(initialState: initialState, reducer: { state, action in
            reducer(&state, action)
            let after = state
            box.progress.withLock { $0.log.append(Reduction(action: action, state: after)) }
        }, middleware: middleware, options: StoreOptions(log: { _ in }))
    }

    /// The state after the last checked action.
    public var state: State { box.progress.withLock { $0.state } }

    /// Sends `action`, waits until it is reduced, and checks the state it produced against
    /// the state before with `update` applied (exhaustive) or the actual state with `update`
    /// applied (non-exhaustive). In exhaustive mode, actions received and not yet checked fail.
    public func send(
        _ action: Action,
        sourceLocation: SourceLocation = #_sourceLocation,
        assert update: (@Sendable (inout State) throws -> Void)? = nil
    ) async {
        reportUnchecked(before: "sending \(action)", sourceLocation: sourceLocation)
        await store.dispatch(action)
        let found = box.progress.withLock { progress -> (index: Int, unchecked: [Action])? in
            guard let index = progress.log[progress.checked...].lastIndex(where: { $0.action == action }) else { return nil }
            return (index, progress.log[progress.checked..<index].map(\.action))
        }
        guard let found else {
            record("\(action) was sent but never reduced (the store was closed?)", sourceLocation)
            return
        }
        if exhaustivity == .on, !found.unchecked.isEmpty {
            record("Received \(found.unchecked) before \(action) was reduced; receive them first", sourceLocation)
        }
        check(found.index, title: "send(\(action))", update: update, sourceLocation: sourceLocation)
    }

    /// Waits for the next action middleware emitted and checks it is `action`, and the state it
    /// produced like ``send(_:sourceLocation:assert:)``. Non-exhaustive: skips other actions
    /// until one equals `action`.
    public func receive(
        _ action: Action,
        sourceLocation: SourceLocation = #_sourceLocation,
        assert update: (@Sendable (inout State) throws -> Void)? = nil
    ) async {
        let deadline = ContinuousClock.now + timeout
        while true {
            let next = box.progress.withLock { progress -> (index: Int, action: Action)? in
                guard progress.checked < progress.log.count else { return nil }
                if exhaustivity == .off,
                   let index = progress.log[progress.checked...].firstIndex(where: { $0.action == action }) {
                    return (index, action)
                }
                return exhaustivity == .on ? (progress.checked, progress.log[progress.checked].action) : nil
            }
            if let next {
                if next.action != action {
                    record("Expected to receive \(action), received \(next.action)", sourceLocation)
                }
                check(next.index, title: "receive(\(action))", update: update, sourceLocation: sourceLocation)
                return
            }
            if ContinuousClock.now > deadline {
                record("Expected to receive \(action) within \(timeout), received nothing", sourceLocation)
                return
            }
            try? await Task.sleep(for: .milliseconds(1))
        }
    }

    /// Moves the clock forward by `duration`, waking the effects sleeping until then. When
    /// effects are in flight it first waits (up to `timeout`) until one of them sleeps on the
    /// clock, so an effect that has not reached its sleep yet is not skipped over.
    public func advance(by duration: Duration) async {
        if store.statistics.effectsInFlight > 0 {
            _ = await clock.waitForSleepers(atLeast: 1, limit: timeout / RealTimeScale.factor)
        }
        clock.advance(by: duration)
    }

    /// Ends the test: waits (up to `timeout`, and no longer once only the clock can wake the
    /// effects in flight) for effects in flight to end, and in exhaustive mode fails for
    /// actions received and not checked, and for effects still running.
    public func finish(sourceLocation: SourceLocation = #_sourceLocation) async {
        let deadline = ContinuousClock.now + timeout
        var asleepChecks = 0
        while store.statistics.effectsInFlight > 0, ContinuousClock.now < deadline {
            // Twice in a row, a millisecond apart: an effect that emitted and went back to
            // sleep between the reads of one check has had its action reduced by the next.
            asleepChecks = onlyTheClockCanWakeEffects ? asleepChecks + 1 : 0
            if asleepChecks == 2 { break }
            try? await Task.sleep(for: .milliseconds(1))
        }
        guard exhaustivity == .on else { return }
        let running = store.statistics.effectsInFlight
        if running > 0 {
            record("\(running) effect(s) still running at the end of the test; cancel them or let them finish", sourceLocation)
        }
        reportUnchecked(before: "finishing", sourceLocation: sourceLocation)
    }

    /// Whether every effect in flight sleeps on the clock and no action is queued or being
    /// reduced (one could cancel an effect): nothing changes until the test advances the clock.
    private var onlyTheClockCanWakeEffects: Bool {
        guard store.isIdle else { return false }
        let statistics = store.statistics
        return clock.sleeperCount >= statistics.effectsInFlight && store.isIdle
    }

    /// Marks every action received so far as checked (for exhaustive tests that do not care).
    public func skipReceivedActions() {
        box.progress.withLock { progress in
            if let last = progress.log.last { progress.state = last.state }
            progress.checked = progress.log.count
        }
    }

    private func reportUnchecked(before what: String, sourceLocation: SourceLocation) {
        let unchecked = box.progress.withLock { progress in progress.log[progress.checked...].map(\.action) }
        guard !unchecked.isEmpty else { return }
        if exhaustivity == .on {
            record("Received \(unchecked.count) action(s) not asserted before \(what): \(unchecked)", sourceLocation)
        }
        skipReceivedActions()
    }

    private func check(
        _ index: Int, title: String, update: (@Sendable (inout State) throws -> Void)?, sourceLocation: SourceLocation
    ) {
        let (before, actual) = box.progress.withLock { progress in
            defer {
                progress.checked = index + 1
                progress.state = progress.log[index].state
            }
            return (index > 0 ? progress.log[index - 1].state : progress.state, progress.log[index].state)
        }
        var expected = exhaustivity == .on ? before : actual
        do {
            try update?(&expected)
        } catch {
            record("\(title): the assertion closure threw \(error)", sourceLocation)
            return
        }
        guard expected != actual else { return }
        record("\(title): state differs from expected (- expected, + actual):\n"
               + StateDiff.describe(expected: expected, actual: actual), sourceLocation)
    }

    private func record(_ message: String, _ sourceLocation: SourceLocation) {
        Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
    }
}
