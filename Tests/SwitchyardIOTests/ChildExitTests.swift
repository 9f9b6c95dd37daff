import Glibc
import SwitchyardTestSupport
import Testing
@testable import SwitchyardIO

/// A child's exit, heard through its pidfd on the loop.
struct ChildExitTests {
    /// An exit code and a killing signal are reported as such.
    @Test(arguments: [("exit 3", ProcessExit.exited(3)), ("kill -KILL $$", .signalled(SIGKILL))])
    func reportsExit(script: String, expected: ProcessExit) async throws {
        let loop = try EventLoop(name: "test.child")
        let pid = try spawn(["/bin/sh", "-c", script])
        let seen = Recorder<ProcessExit>()
        loop.execute { thread in
            do {
                _ = try ChildExitWatcher(pid: pid, on: thread) { seen.append($0) }
            } catch {
                seen.append(.unknown)
            }
        }
        await waitUntil("the child's exit was heard") { seen.count == 1 }
        #expect(seen.all == [expected])
        #expect(waitpid(pid, nil, WNOHANG) == -1 && errno == ECHILD)
        await loop.shutDown()
    }

    /// A signal sent through the pidfd reaches the child.
    @Test func signalThroughPidfd() async throws {
        let loop = try EventLoop(name: "test.signal-child")
        let pid = try spawn(["/bin/sleep", "60"])
        let seen = Recorder<ProcessExit>()
        loop.execute { thread in
            guard let watcher = try? ChildExitWatcher(pid: pid, on: thread, onExit: { seen.append($0) }) else { return }
            watcher.send(signal: SIGKILL)
        }
        await waitUntil("the child was killed") { seen.count == 1 }
        #expect(seen.all == [.signalled(SIGKILL)])
        await loop.shutDown()
    }

    /// `beforeReap` runs once the child has exited but is not reaped yet: its pid still
    /// names a zombie then, and is gone after `onExit`.
    @Test func beforeReapSeesTheZombie() async throws {
        let loop = try EventLoop(name: "test.before-reap")
        let pid = try spawn(["/bin/sh", "-c", "exit 4"])
        let seen = Recorder<String>()
        loop.execute { thread in
            do {
                _ = try ChildExitWatcher(
                    pid: pid, on: thread,
                    beforeReap: { seen.append(waitid(P_PID, id_t(pid), nil, WEXITED | WNOHANG | WNOWAIT) == 0 ? "zombie" : "gone") },
                    onExit: { seen.append("\($0)") })
            } catch {
                seen.append("\(error)")
            }
        }
        await waitUntil("the child's exit was heard") { seen.count == 2 }
        #expect(seen.all == ["zombie", "\(ProcessExit.exited(4))"])
        #expect(waitpid(pid, nil, WNOHANG) == -1 && errno == ECHILD)
        await loop.shutDown()
    }

    private func spawn(_ arguments: [String]) throws -> pid_t {
        var pid: pid_t = 0
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        let status = posix_spawn(&pid, arguments[0], nil, nil, argv, environ)
        guard status == 0 else { throw IOError.system("posix_spawn", errno: status) }
        return pid
    }
}
