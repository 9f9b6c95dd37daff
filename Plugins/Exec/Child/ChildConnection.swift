import CExecSpawn
import Foundation
import Glibc
import Synchronization

/// A running child process and the pipes to it, usable from async code without ever blocking
/// a cooperative thread.
///
/// Two threads of its own do the waiting: an I/O thread polls the child's stdin, stdout and
/// stderr (non-blocking, with a wake-up pipe for the bus side), and a reaper thread waits for
/// the child to exit. Lines for the child go into a bounded queue (``enqueue(_:)`` never
/// waits); lines from it come out of ``next()``, and reading pauses while the consumer is
/// behind, so a flooding child is slowed down instead of growing memory. When the child
/// exits, whatever is left in its process group is killed, the child is reaped, every pipe
/// is closed, and ``next()`` returns ``ChildEvent/exited(_:)`` as its last event.
final class ChildConnection: Sendable {
    /// The child's pid, also its process group id.
    let pid: pid_t
    /// What was started.
    let command: ChildCommand
    /// The inodes of every pipe the connection opened, so tests can check that none of them
    /// is still open in the bus process afterwards.
    let pipeInodes: Set<UInt64>

    private let state: Mutex<ChildConnectionState>
    private let wakeWrite: Int32

    private init(pid: pid_t, command: ChildCommand, pipeInodes: Set<UInt64>, limits: ChildLimits, wakeWrite: Int32) {
        self.pid = pid
        self.command = command
        self.pipeInodes = pipeInodes
        self.state = Mutex(ChildConnectionState(limits: limits))
        self.wakeWrite = wakeWrite
    }

    /// Starts `command`; throws ``ExecError`` when it cannot be started.
    static func start(_ command: ChildCommand, limits: ChildLimits = ChildLimits()) throws(ExecError) -> ChildConnection {
        let child = try ChildSpawner.spawn(command)
        var wake: [Int32] = [-1, -1]
        guard cexec_pipe_cloexec(&wake, 1) == 0 else {
            let error = errno
            for descriptor in [child.stdin, child.stdout, child.stderr] {
                close(descriptor)
            }
            kill(-child.pid, SIGKILL)
            cexec_child_forget(child.pid)
            var status: Int32 = 0
            while waitpid(child.pid, &status, 0) == -1, errno == EINTR {}
            throw .pipe(errno: error)
        }
        let inodes = Set([child.stdin, child.stdout, child.stderr, wake[0]].map(Self.inode(of:)))
        let connection = ChildConnection(pid: child.pid, command: command, pipeInodes: inodes, limits: limits, wakeWrite: wake[1])
        let (wakeRead, wakeWrite) = (wake[0], wake[1])
        let ioThread = Thread {
            ChildIOLoop(connection: connection, child: child, wakeRead: wakeRead, wakeWrite: wakeWrite, limits: limits).run()
        }
        ioThread.name = "exec-io-\(child.pid)"
        ioThread.start()
        let reaperThread = Thread { connection.reap() }
        reaperThread.name = "exec-reaper-\(child.pid)"
        reaperThread.start()
        return connection
    }

    // MARK: The bus side

    /// Queues `line` (newline included) for the child's stdin without waiting.
    @discardableResult
    func enqueue(_ line: [UInt8]) -> InputQueue.PushResult {
        state.withLock { state in
            let (result, wakeIO) = state.enqueue(line)
            if wakeIO { writeWakeByte() }
            return result
        }
    }

    /// Closes the child's stdin (the polite way to ask it to stop), discarding queued lines.
    func closeInput() {
        state.withLock { state in
            if state.requestInputClose() { writeWakeByte() }
        }
    }

    /// Sends `signal` to the child's process group; `false` once the child has been reaped,
    /// when its pid may already belong to another process.
    @discardableResult
    func signal(_ signal: Int32) -> Bool {
        state.withLock { state in
            state.exitStatus == nil && kill(-pid, signal) == 0
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
                    switch state.takeEvent() {
                    case .event(let event, let wakeIO):
                        if wakeIO { writeWakeByte() }
                        return .some(event)
                    case .end:
                        return .some(nil)
                    case .wait:
                        state.suspend(continuation)
                        return nil
                    }
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
        state.withLock { state in
            switch state.takeEvent() {
            case .event(let event, let wakeIO):
                if wakeIO { writeWakeByte() }
                return .some(event)
            case .end:
                return .some(nil)
            case .wait:
                return nil
            }
        }
    }

    // MARK: The I/O thread

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

    /// Closes the wake pipe once nobody can write to it any more.
    func retireWakePipe(read: Int32, write: Int32) {
        state.withLock { $0.retireWakePipe() }
        close(read)
        close(write)
    }

    /// Queues the exit event once the I/O thread has closed every descriptor.
    func finish(_ status: ChildExitStatus) {
        guard let (consumer, event) = state.withLock({ $0.finish(status) }) else { return }
        consumer.resume(returning: event)
    }

    // MARK: The reaper thread

    private func reap() {
        var info = siginfo_t()
        var waited: Int32
        repeat {
            waited = waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT)
        } while waited == -1 && errno == EINTR
        state.withLock { state in
            var exit = ChildExitStatus.exited(code: -1)
            if waited == 0 {
                // The leader is a zombie until reaped below, so its pid still names only our
                // process group: whatever the child left running there goes with it.
                kill(-pid, SIGKILL)
                cexec_child_forget(pid)
                var status: Int32 = 0
                while waitpid(pid, &status, 0) == -1, errno == EINTR {}
                exit = ChildExitStatus(waitStatus: status)
            }
            if state.recordExit(exit) { writeWakeByte() }
        }
    }

    /// Called only under the state lock after the state agreed, so never after the wake pipe
    /// was retired.
    private func writeWakeByte() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    private static func inode(of descriptor: Int32) -> UInt64 {
        var info = stat()
        return fstat(descriptor, &info) == 0 ? UInt64(info.st_ino) : 0
    }
}
