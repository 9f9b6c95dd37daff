import CExecSpawn
import Glibc

/// A child process just started: its pid and the parent's ends of its standard streams, all
/// non-blocking and close-on-exec.
struct SpawnedChild: Sendable, Hashable {
    /// The child's pid, also its process group id.
    let pid: pid_t
    /// The write end of the child's stdin.
    let stdin: Int32
    /// The read end of the child's stdout.
    let stdout: Int32
    /// The read end of the child's stderr.
    let stderr: Int32
}

/// Starts child processes with `cexec_spawn` (fork and exec from one long-lived thread).
///
/// Every pipe is created close-on-exec, so a child started at the same moment by another
/// plugin inherits none of them; the child additionally closes every descriptor above 2.
/// The child leads a process group of its own, so stopping it reaches whatever it started,
/// and a terminal's Ctrl-C reaches only the bus, which then stops it in order. Its signal
/// mask is emptied and every disposition reset, because the bus blocks SIGTERM, SIGINT and
/// SIGHUP in all threads and a blocked or ignored signal would be inherited across `exec`.
/// It dies with the bus (`PR_SET_PDEATHSIG`), even after `kill -9`, which `posix_spawn`
/// cannot arrange.
enum ChildSpawner {
    /// Starts `command`; throws ``ExecError`` when pipes cannot be made or the executable
    /// cannot be run (missing, not executable, bad working directory).
    static func spawn(_ command: ChildCommand) throws(ExecError) -> SpawnedChild {
        var opened: [Int32] = []
        // Held open until the child has started so no pipe end lands on 0, 1 or 2 (possible
        // when the bus runs with a standard stream closed), where the `dup2` file actions
        // would clobber one pipe end with another.
        var placeholders: [Int32] = []
        defer {
            for descriptor in placeholders {
                close(descriptor)
            }
        }
        func pipePair() throws(ExecError) -> (read: Int32, write: Int32) {
            var ends: [Int32] = [-1, -1]
            guard cexec_pipe_cloexec(&ends, 0) == 0 else { throw .pipe(errno: errno) }
            var failure: Int32?
            for index in ends.indices where ends[index] <= 2 {
                placeholders.append(ends[index])
                ends[index] = fcntl(ends[index], F_DUPFD_CLOEXEC, 3)
                if ends[index] < 0, failure == nil { failure = errno }
            }
            opened += ends.filter { $0 >= 0 }
            if let failure { throw .pipe(errno: failure) }
            return (ends[0], ends[1])
        }
        do {
            let input = try pipePair()
            let output = try pipePair()
            let diagnostics = try pipePair()
            let pid = try launch(command, stdin: input.read, stdout: output.write, stderr: diagnostics.write)
            for childEnd in [input.read, output.write, diagnostics.write] {
                close(childEnd)
            }
            for parentEnd in [input.write, output.read, diagnostics.read] {
                _ = fcntl(parentEnd, F_SETFL, fcntl(parentEnd, F_GETFL) | O_NONBLOCK)
            }
            return SpawnedChild(pid: pid, stdin: input.write, stdout: output.read, stderr: diagnostics.read)
        } catch {
            for descriptor in opened {
                close(descriptor)
            }
            throw error
        }
    }

    private static func launch(_ command: ChildCommand, stdin: Int32, stdout: Int32, stderr: Int32) throws(ExecError) -> pid_t {
        let argv = ([command.executable] + command.arguments).map { strdup($0) } + [nil]
        let envp = command.environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv + envp {
                free(pointer)
            }
        }
        var pid: pid_t = 0
        let result = command.executable.withCString { executable in
            withOptionalCString(command.workingDirectory) { directory in
                argv.withUnsafeBufferPointer { argv in
                    envp.withUnsafeBufferPointer { envp in
                        var options = cexec_spawn_options(
                            executable: executable, search_path: command.executable.contains("/") ? 0 : 1,
                            argv: argv.baseAddress, envp: envp.baseAddress,
                            stdin_fd: stdin, stdout_fd: stdout, stderr_fd: stderr, working_directory: directory
                        )
                        return cexec_spawn(&options, &pid)
                    }
                }
            }
        }
        guard result == 0 else { throw .spawn(command: command.executable, errno: result) }
        return pid
    }

    private static func withOptionalCString<R>(_ string: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
        guard let string else { return body(nil) }
        return string.withCString { body($0) }
    }
}
