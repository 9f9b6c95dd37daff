import CExecSpawn
import FoundationEssentials
import Glibc
import Synchronization
import SwitchyardIO

/// A running child process and the pipes to it, usable from async code without ever blocking
/// a cooperative thread.
///
/// It has no thread of its own: the child's stdin, stdout and stderr (non-blocking) and its
/// pidfd are served by the process's event loop (``ChildPipeHandler``), which the bus side
/// wakes through a ``LoopSignal``. Lines for the child go into a bounded queue
/// (``enqueue(_:)`` never waits); lines from it come out of ``next()``, and reading pauses
/// while the consumer is behind, so a flooding child is slowed down instead of growing memory.
/// When the child exits, whatever is left in its process group is killed, the child is
/// reaped, every pipe is closed, and ``next()`` returns ``ChildEvent/exited(_:)`` as its last
/// event.
final class ChildConnection: Sendable {
    /// The child's pid, also its process group id.
    let pid: pid_t
    /// What was started.
    let command: ChildCommand
    /// The inodes of every pipe the connection opened, so tests can check that none of them
    /// is still open in the bus process afterwards.
    let pipeInodes: Set<UInt64>

    private let state: Mutex<ChildConnectionState>
    private let wake: LoopSignal

    private init(pid: pid_t, command: ChildCommand, pipeInodes: Set<UInt64>, limits: ChildLimits, wake: LoopSignal) {
        self.pid = pid
        self.command = command
        self.pipeInodes = pipeInodes
        self.state = Mutex(ChildConnectionState(limits: limits))
        self.wake = wake
    }

    /// Starts `command`; throws ``ExecError`` when it cannot be started.
    static func start(_ command: ChildCommand, limits: ChildLimits = ChildLimits()) throws(ExecError) -> ChildConnection {
        let loop: EventLoop
        do {
            loop = try EventLoop.shared()
        } catch {
            throw .pipe(errno: error.errno ?? EMFILE)
        }
        let child = try ChildSpawner.spawn(command)
        let inodes = Set([child.stdin, child.stdout, child.stderr].map(Self.inode(of:)))
        let wake = loop.makeSignal()
        let connection = ChildConnection(pid: child.pid, command: command, pipeInodes: inodes, limits: limits, wake: wake)
        loop.execute { thread in
            ChildPipeHandler.start(connection, child: child, limits: limits, wake: wake, on: thread)
        }
        return connection
    }

    // MARK: The bus side

    /// Queues `line` (newline included) for the child's stdin without waiting.
    @discardableResult
    func enqueue(_ line: [UInt8]) -> InputQueue.PushResult {
        state.withLock { state in
            let (result, wakeIO) = state.enqueue(line)
            if wakeIO { wake.fire() }
            return result
        }
    }

    /// Closes the child's stdin (the polite way to ask it to stop), discarding queued lines.
    func closeInput() {
        state.withLock { state in
            if state.requestInputClose() { wake.fire() }
        }
    }

    /// Sends `signal` to the child's process group; `false` once the child has exited and is
    /// about to be reaped, when its pid may soon belong to another process.
    @discardableResult
    func signal(_ signal: Int32) -> Bool {
        state.withLock { state in
            !state.isLeaderGone && kill(-pid, signal) == 0
        }
    }

    /// What happened to the lines meant for the child so far.
    var inputCounters: InputCounters {
        state.withLock { $0.input.counters }
    }

    /// The most bytes of the child's output buffered at once so far.
    var peakBufferedOutputBytes: Int {
        state.withLock { $0.peakEventBytes }
    }

    /// How the child ended; `nil` while it runs.
    var exitStatus: ChildExitStatus? {
        state.withLock { $0.exitStatus }
    }

    /// The next event from the child; `nil` after ``ChildEvent/exited(_:)`` has been
    /// returned, or when the calling task is cancelled (events stay buffered for a later call).
    func next() async -> ChildEvent? {
        if Task.isCancelled { return nil }
        if let ready = takeBuffered() { return ready }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<ChildEvent?, Never>) in
                let immediate: ChildEvent?? = state.withLock { state in
                    if Task.isCancelled { return .some(nil) }
                    if let taken = take(from: &state) { return taken }
                    state.suspend(continuation)
                    return nil
                }
                if let immediate {
                    continuation.resume(returning: immediate)
                }
            }
        } onCancel: {
            state.withLock { $0.cancelConsumer() }?.resume(returning: nil)
        }
    }

    private func takeBuffered() -> ChildEvent?? {
        state.withLock { take(from: &$0) }
    }

    /// The next event under the lock: an event, `.some(nil)` at the end, `nil` when the
    /// consumer has to wait. Taking one that frees room for output wakes the I/O loop.
    private func take(from state: inout ChildConnectionState) -> ChildEvent?? {
        switch state.takeEvent() {
        case .event(let event, let wakeIO):
            if wakeIO { wake.fire() }
            return .some(event)
        case .end:
            return .some(nil)
        case .wait:
            return nil
        }
    }

    // MARK: The loop side

    /// See ``ChildConnectionState/planIO(wantsBatch:inputOpen:)``.
    func planIO(wantsBatch: Bool, inputOpen: Bool) -> ChildConnectionState.IOPlan {
        state.withLock { $0.planIO(wantsBatch: wantsBatch, inputOpen: inputOpen) }
    }

    /// See ``ChildConnectionState/recordWritten(lines:)``.
    func recordWritten(lines: Int) {
        state.withLock { $0.recordWritten(lines: lines) }
    }

    /// See ``ChildConnectionState/recordInputClosed(unwrittenLines:)``.
    func recordInputClosed(unwrittenLines: Int) {
        state.withLock { $0.recordInputClosed(unwrittenLines: unwrittenLines) }
    }

    /// Hands events from the child to the consumer.
    func deliver(_ events: [ChildEvent]) {
        guard !events.isEmpty, let (consumer, event) = state.withLock({ $0.deliver(events) }) else { return }
        consumer.resume(returning: event)
    }

    /// The child has exited and is not reaped yet, so its pid still names only its process
    /// group: whatever it left running there goes with it, and from now on ``signal(_:)``
    /// sends nothing (the number may soon belong to another process).
    func leaderExited() {
        state.withLock { state in
            state.recordLeaderGone()
            kill(-pid, SIGKILL)
            cexec_child_forget(pid)
        }
    }

    /// Records how the reaped child ended; the loop side plans again itself.
    func recordExit(_ status: ChildExitStatus) {
        state.withLock { _ = $0.recordExit(status) }
    }

    /// The loop side is about to stop listening: from now on nobody wakes it.
    func retireWake() {
        state.withLock { $0.retireWakePipe() }
    }

    /// Queues the exit event once the loop side has closed every descriptor.
    func finish(_ status: ChildExitStatus) {
        guard let (consumer, event) = state.withLock({ $0.finish(status) }) else { return }
        consumer.resume(returning: event)
    }

    private static func inode(of descriptor: Int32) -> UInt64 {
        var info = stat()
        return fstat(descriptor, &info) == 0 ? UInt64(info.st_ino) : 0
    }
}
