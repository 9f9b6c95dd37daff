import Glibc

/// A loop for tests that makes no system call: a manual clock, timers run by
/// ``advance(by:)``, signals and before-waiting work run by ``runTurn()``, and
/// ``EmbeddedChannel``s whose bytes the test feeds and collects.
///
/// A protocol adapter written against ``LoopScheduler`` and ``StreamChannel`` — or a server's
/// host written against ``HostLoop`` — runs on it unchanged, deterministically and in-process,
/// as swift-nio's `EmbeddedChannel` lets a handler be tested. Not thread-safe: use it from one
/// task (its signals may be fired from anywhere).
package final class EmbeddedLoop: HostLoop {
    package private(set) var now: ContinuousClock.Instant
    private var timers = TimerQueue<() -> Void>()
    private var signals: [UInt64: (signal: LoopSignal, body: () -> Void)] = [:]
    private var nextSignalToken: UInt64 = 0
    private var beforeWait: [() -> Void] = []

    /// Creates a loop whose clock starts at `start`.
    package init(start: ContinuousClock.Instant = .now) {
        now = start
    }

    @discardableResult
    package func schedule(at deadline: ContinuousClock.Instant, _ body: @escaping () -> Void) -> TimerID {
        timers.schedule(at: deadline, body)
    }

    package func cancel(_ timer: TimerID) {
        timers.cancel(timer)
    }

    /// How many timers are scheduled.
    package var scheduledCount: Int { timers.count }

    /// Moves the clock forward by `duration`, running each timer due on the way at its own
    /// deadline, in deadline order (timers they schedule within the span run too), then a turn.
    package func advance(by duration: Duration) {
        let target = now.advanced(by: duration)
        while let deadline = timers.nextDeadline(), deadline <= target {
            now = max(now, deadline)
            while let (_, body) = timers.popDue(at: now) { body() }
        }
        now = target
        runTurn()
    }

    /// A signal whose work this loop's turns run when it was fired (from any thread).
    package func makeSignal() -> LoopSignal {
        nextSignalToken += 1
        return LoopSignal(token: nextSignalToken, loop: nil)
    }

    package func setSignalHandler(_ signal: LoopSignal, _ body: @escaping () -> Void) {
        signals[signal.token] = (signal, body)
    }

    package func removeSignal(_ signal: LoopSignal) {
        signals[signal.token] = nil
    }

    package func beforeWaiting(_ body: @escaping () -> Void) {
        beforeWait.append(body)
    }

    /// One turn of the loop at the current time, as the real loop turns between waits: the
    /// work of every fired signal, the timers due, then the before-waiting work (and any it
    /// asks for). Returns whether anything ran.
    @discardableResult
    package func runTurn() -> Bool {
        var ran = false
        for (token, entry) in signals.sorted(by: { $0.key < $1.key }) where entry.signal.takeFired() {
            guard signals[token] != nil else { continue }
            ran = true
            entry.body()
        }
        while let (_, body) = timers.popDue(at: now) {
            ran = true
            body()
        }
        while !beforeWait.isEmpty {
            let bodies = beforeWait
            beforeWait = []
            ran = true
            for body in bodies { body() }
        }
        return ran
    }

    /// Always throws: an embedded loop has no descriptors (the test connects channels itself).
    package func accept(on listener: Int32, pause: Duration, _ onEvent: @escaping (Acceptor.Event) -> Void) throws(IOError) -> Acceptor {
        throw IOError.system("accept (embedded loop)", errno: EOPNOTSUPP)
    }

    /// Always throws: an embedded loop has no descriptors (the test connects channels itself).
    package func channel(for descriptor: Int32) throws(IOError) -> any StreamChannel {
        throw IOError.system("epoll_ctl (embedded loop)", errno: EOPNOTSUPP)
    }
}
