import CSwitchyardIO
import Glibc

/// How a child process ended.
package enum ProcessExit: Sendable, Hashable {
    /// It called `exit` with this code.
    case exited(Int32)
    /// A signal with this number killed it.
    case signalled(Int32)
    /// Something else in the process reaped it first, so its status is unknown.
    case unknown
}

/// Child-process plumbing for the loop: close-on-exec pipes, and a child's exit heard
/// through a pidfd instead of a thread blocked in `waitpid` or a `SIGCHLD` handler.
package enum ChildPipes {
    /// A pipe, both ends non-blocking and close-on-exec (the spawner duplicates the child's
    /// end onto 0, 1 or 2, which clears close-on-exec for the child alone).
    /// - Throws: ``IOError`` when out of descriptors.
    package static func make() throws(IOError) -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        guard csio_pipe(&ends) == 0 else { throw IOError.system("pipe2", errno: errno) }
        return (ends[0], ends[1])
    }
}

/// Watches one child through its pidfd and reaps it when it exits.
///
/// The pidfd is opened right after the spawn; the child cannot be reaped by anyone else in
/// between (only its parent can, and the bus reaps through here), so the pid cannot have been
/// reused.
package final class ChildExitWatcher: DescriptorHandler {
    /// The child's process id.
    package let pid: pid_t
    private let pidfd: Int32
    private let thread: LoopThread
    private var registration: Registration?
    private var onExit: ((ProcessExit) -> Void)?
    private var beforeReap: (() -> Void)?

    /// Starts watching `pid`, a child of this process; `onExit` runs on the loop once, after
    /// the child was reaped. `beforeReap` (default none) runs on the loop once the child has
    /// exited but before it is reaped, while its pid and process group id still cannot be
    /// reused: the moment to kill what it left running in its group.
    /// - Throws: ``IOError`` when the pidfd cannot be opened (no such child, or a kernel
    ///   older than 5.3) or registered.
    package init(
        pid: pid_t, on thread: LoopThread, beforeReap: (() -> Void)? = nil, onExit: @escaping (ProcessExit) -> Void
    ) throws(IOError) {
        let pidfd = csio_pidfd_open(pid)
        guard pidfd >= 0 else { throw IOError.system("pidfd_open", errno: errno) }
        self.pid = pid
        self.pidfd = pidfd
        self.thread = thread
        self.onExit = onExit
        self.beforeReap = beforeReap
        do {
            registration = try thread.register(pidfd, interest: .readable, handler: self)
        } catch {
            Glibc.close(pidfd)
            throw error
        }
    }

    /// Sends `signal` to the child while it has not been reaped; returns `false` if it was.
    /// Through the pidfd, so a reused pid can never be hit.
    @discardableResult
    package func send(signal: Int32) -> Bool {
        guard registration != nil else { return false }
        return csio_pidfd_signal(pidfd, signal) == 0
    }

    package func ready(_ events: IOEvents) {
        if let beforeReap {
            let state = csio_pidfd_exited(pidfd)
            if state < 0, errno == ECHILD { return finish(.unknown) }
            guard state == 1 else { return }
            self.beforeReap = nil
            beforeReap()
        }
        var exited: Int32 = 0
        var code: Int32 = 0
        var signal: Int32 = 0
        guard csio_pidfd_reap(pidfd, &exited, &code, &signal) == 0 else {
            if errno == ECHILD { finish(.unknown) }
            return
        }
        guard exited != 0 else { return }
        finish(signal != 0 ? .signalled(signal) : .exited(code))
    }

    private func finish(_ status: ProcessExit) {
        guard let registration else { return }
        thread.deregister(registration)
        self.registration = nil
        Glibc.close(pidfd)
        let onExit = self.onExit
        self.onExit = nil
        beforeReap = nil
        onExit?(status)
    }
}
