import Foundation
import Glibc
import SwitchyardTestSupport
import Synchronization
import SwitchyardTesting
import Testing

@testable import ExecPlugin

/// Child connections to real Python processes: protocol plumbing, bounds, exits and cleanup.
@Suite(Fixtures.requirement, .scaledTimeLimit(minutes: 1))
struct ChildConnectionTests {
    private func expectCleanedUp(_ connection: ChildConnection, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(Fixtures.openPipeInodes().isDisjoint(with: connection.pipeInodes), "a pipe to the child is still open", sourceLocation: sourceLocation)
        #expect(!Fixtures.isOurChild(connection.pid), "the child was not reaped", sourceLocation: sourceLocation)
    }

    /// A line written to the child comes back transformed, with stderr lines as diagnostics.
    @Test func roundTrip() async throws {
        let connection = try ChildConnection.start(Fixtures.command("echo.py", "echoed"))
        #expect(connection.enqueue(Array(#"{"type":"test/ping","payload":{"n":1},"id":7}"#.utf8) + [10]) == .queued)
        let reply = ChildEvent.output(Array(#"{"type": "echoed/ping", "payload": {"n": 1}, "cause": 7}"#.utf8))
        var events: [ChildEvent] = []
        while let event = await connection.next() {
            events.append(event)
            if event == reply { break }
        }
        events += await connection.eventsUntilExitAfterClosingInput()
        #expect(events.filter { if case .output = $0 { true } else { false } } == [reply])
        #expect(events.contains(.diagnostic("echo: started")))
        #expect(events.contains(.diagnostic("echo: stdin closed")))
        #expect(events.last == .exited(.exited(code: 0)))
        #expect(connection.inputCounters == InputCounters(written: 1, dropped: 0, discarded: 0))
        expectCleanedUp(connection)
    }

    /// An over-long output line is reported with an excerpt and the lines after it still arrive.
    @Test func overlongOutputLine() async throws {
        var limits = ChildLimits()
        limits.maximumLineLength = 64 << 10
        let connection = try ChildConnection.start(Fixtures.command("malformed.py"), limits: limits)
        var overlong: (excerpt: String, length: Int)?
        var sawDone = false
        while !sawDone, let event = await connection.next() {
            switch event {
            case .overlongOutput(let excerpt, let length):
                overlong = (String(decoding: excerpt, as: UTF8.self), length)
            case .output(let line):
                sawDone = String(decoding: line, as: UTF8.self).contains("malformed/done")
            default:
                break
            }
        }
        #expect(sawDone)
        #expect(overlong?.excerpt.hasPrefix(#"{"type": "malformed/long""#) == true)
        #expect(overlong?.length == #"{"type": "malformed/long", "payload": ""}"#.utf8.count + 2 << 20)
        #expect(connection.peakBufferedOutputBytes <= 2 * limits.maximumLineLength + (64 << 10))
        _ = await connection.eventsUntilExitAfterClosingInput()
        expectCleanedUp(connection)
    }

    /// A child that never reads its stdin never blocks the writer: lines beyond the queue are dropped and counted.
    @Test func childThatNeverReads() async throws {
        var limits = ChildLimits()
        limits.inputCapacity = 8
        let connection = try ChildConnection.start(Fixtures.command("never_reads.py"), limits: limits)
        _ = await connection.outputLines { $0.contains("lazy/started") }
        let line = Array(repeating: UInt8(ascii: "x"), count: 1023) + [10]
        var overflowEpisodes = 0
        for _ in 0..<10_000 {
            if case .overflowed(let startsEpisode) = connection.enqueue(line), startsEpisode {
                overflowEpisodes += 1
            }
        }
        let counters = connection.inputCounters
        #expect(counters.dropped >= 10_000 - 8 - 1024)
        // Episodes end only when the child catches up, which it never does once the pipe is full.
        #expect(overflowEpisodes >= 1 && overflowEpisodes * 100 < counters.dropped)
        let outcome = await connection.stopAfterInputPhase { _ in }
        #expect(outcome == .terminated(.signalled(signal: SIGTERM)))
        let final = connection.inputCounters
        #expect(final.written + final.dropped + final.discarded == 10_000)
        expectCleanedUp(connection)
    }

    /// A flooding child is slowed down, not buffered: every line arrives, in order, within the memory bound.
    @Test func childThatFloods() async throws {
        var limits = ChildLimits()
        limits.maximumLineLength = 4 << 10
        limits.eventCapacity = 16
        let count = 50_000
        let connection = try ChildConnection.start(Fixtures.command("flood.py", String(count)), limits: limits)
        var next = 0
        var inOrder = true
        while let event = await connection.next() {
            guard case .output(let bytes) = event else { continue }
            let line = String(decoding: bytes, as: UTF8.self)
            if line.contains("flood/done") { break }
            inOrder = inOrder && line == #"{"type": "flood/item", "payload": \#(next)}"#
            next += 1
            if next % 5000 == 0 {
                await Task.yield()
            }
        }
        #expect(inOrder)
        #expect(next == count)
        #expect(connection.peakBufferedOutputBytes <= 2 * limits.maximumLineLength + (64 << 10))
        _ = await connection.eventsUntilExitAfterClosingInput()
        expectCleanedUp(connection)
    }

    /// A child that exits by itself reports its exit code as the last event and leaves nothing behind.
    @Test func childThatCrashes() async throws {
        let connection = try ChildConnection.start(Fixtures.command("crash.py", "3"))
        let events = await connection.eventsUntilExit()
        #expect(events.first == .output(Array(#"{"type": "crash/started"}"#.utf8)))
        #expect(events.last == .exited(.exited(code: 3)))
        #expect(connection.enqueue([10]) == .closed)
        expectCleanedUp(connection)
    }

    /// What a dead child started in its process group is killed with it.
    @Test func grandchildrenDie() async throws {
        let connection = try ChildConnection.start(Fixtures.command("grandchild.py"))
        let events = await connection.eventsUntilExit()
        guard case .output(let bytes) = events.first,
            let report = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
            let grandchild = report["payload"] as? Int
        else {
            Issue.record("no grandchild pid in \(events)")
            return
        }
        #expect(events.last == .exited(.exited(code: 1)))
        #expect(Fixtures.isDeadOrDying(pid_t(grandchild)))
        expectCleanedUp(connection)
    }

    /// The child runs with exactly the given environment, in the given directory.
    @Test func environmentAndDirectory() async throws {
        var command = Fixtures.command("environment.py", "GREETING", "HOME")
        command.environment["GREETING"] = "hello"
        command.workingDirectory = "/tmp"
        let connection = try ChildConnection.start(command)
        let lines = await connection.outputLines { _ in true }
        #expect(lines == [#"{"type": "environment/report", "payload": {"cwd": "/tmp", "env": {"GREETING": "hello", "HOME": null}}}"#])
        _ = await connection.eventsUntilExit()
        expectCleanedUp(connection)
    }

    /// A missing or non-executable command is a clear error, not a crash.
    @Test(arguments: [
        ("/nonexistent/plugin", "No such file or directory"),
        (Fixtures.path("echo.py"), "Permission denied"),
    ])
    func commandThatCannotStart(executable: String, reason: String) throws {
        let error = #expect(throws: ExecError.self) {
            try ChildConnection.start(ChildCommand(executable: executable))
        }
        #expect(error?.description == "cannot start \(executable): \(reason)")
    }

    /// A missing working directory is a clear error.
    @Test func workingDirectoryThatDoesNotExist() throws {
        var command = Fixtures.command("echo.py")
        command.workingDirectory = "/nonexistent/directory"
        #expect(throws: ExecError.self) {
            try ChildConnection.start(command)
        }
    }
}

/// Stopping children that cooperate, that need SIGTERM, and that need SIGKILL.
@Suite(Fixtures.requirement, .scaledTimeLimit(minutes: 1))
struct ChildStopTests {
    private let timeout = Duration.milliseconds(200)

    private func stop(
        _ script: String,
        waitingFor started: String?,
        timeout: Duration? = nil
    ) async throws -> (StopOutcome, ChildConnection, [ChildEvent]) {
        let connection = try ChildConnection.start(Fixtures.command(script))
        if let started {
            _ = await connection.outputLines { $0.contains(started) }
        }
        let seen = Mutex<[ChildEvent]>([])
        let outcome = await connection.stop(timeout: timeout ?? self.timeout, clock: ContinuousClock()) { event in
            seen.withLock { $0.append(event) }
        }
        #expect(Fixtures.openPipeInodes().isDisjoint(with: connection.pipeInodes))
        #expect(!Fixtures.isOurChild(connection.pid))
        return (outcome, connection, seen.withLock { $0 })
    }

    /// A child that exits at the end of its stdin stops cleanly, and its last output is still seen.
    @Test func cleanStop() async throws {
        // A generous timeout: a child that starts slowly on a busy machine still stops cleanly.
        let (outcome, _, events) = try await stop("echo.py", waitingFor: nil, timeout: .seconds(30))
        #expect(outcome == .exitedAfterInputClosed(.exited(code: 0)))
        #expect(events.contains(.diagnostic("echo: stdin closed")))
    }

    /// A child that ignores its stdin is stopped by SIGTERM.
    @Test func stopBySIGTERM() async throws {
        let connection = try ChildConnection.start(Fixtures.command("never_reads.py"))
        _ = await connection.outputLines { $0.contains("lazy/started") }
        #expect(await connection.stopAfterInputPhase { _ in } == .terminated(.signalled(signal: SIGTERM)))
        #expect(Fixtures.openPipeInodes().isDisjoint(with: connection.pipeInodes))
        #expect(!Fixtures.isOurChild(connection.pid))
    }

    /// A child that ignores SIGTERM is killed.
    @Test func forcedStop() async throws {
        let (outcome, _, _) = try await stop("stubborn.py", waitingFor: "stubborn/started")
        #expect(outcome == .killed(.signalled(signal: SIGKILL)))
    }

    /// Stopping runs to the end even when the stopping task is already cancelled.
    @Test func stopWhileCancelled() async throws {
        let connection = try ChildConnection.start(Fixtures.command("stubborn.py"))
        _ = await connection.outputLines { $0.contains("stubborn/started") }
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await connection.stop(timeout: timeout, clock: ContinuousClock()) { _ in }
        }
        #expect(await task.value == .killed(.signalled(signal: SIGKILL)))
        #expect(!Fixtures.isOurChild(connection.pid))
    }
}

extension ChildConnection {
    /// Stops the child on a manual clock that ends the closed-stdin phase at once and never
    /// ends the SIGTERM phase, so a child that dies of SIGTERM is seen to, however busy the
    /// machine (a real-time timeout could escalate to SIGKILL before the exit is noticed).
    func stopAfterInputPhase(onEvent: @escaping @Sendable (ChildEvent) async -> Void) async -> StopOutcome {
        let clock = ManualClock()
        let stopping = Task { await stop(timeout: .seconds(1), clock: clock, onEvent: onEvent) }
        if await clock.waitForSleepers(atLeast: 1) { clock.advance(by: .seconds(1)) }
        return await stopping.value
    }

    /// Closes the child's stdin and collects events until the exit.
    func eventsUntilExitAfterClosingInput() async -> [ChildEvent] {
        closeInput()
        return await eventsUntilExit()
    }
}
