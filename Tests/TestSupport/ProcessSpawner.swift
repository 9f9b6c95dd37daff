import CExecSpawn

#if canImport(Glibc)
import Glibc
#endif

/// Starts a program in a new process group with `posix_spawn`, so the whole group can be
/// killed by its id (Foundation's `Process` cannot set a process group).
public enum ProcessSpawner {
    /// Spawns `arguments[0]` with `arguments` and exactly `environment`; stdin is `input` (a
    /// descriptor, duplicated for the child) or /dev/null, stdout and stderr go to the file
    /// `output`. Returns the pid, which is also the group id.
    /// `descriptors` are (parent's descriptor, number in the child) pairs handed over as well,
    /// such as the pipes of Chromium's `--remote-debugging-pipe` (3 and 4).
    static func spawn(_ arguments: [String], environment: [String], input: Int32? = nil, output: String,
                      descriptors: [(source: Int32, target: Int32)] = []) throws -> pid_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var defaultSignals = sigset_t()
        sigemptyset(&defaultSignals)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGPIPE, SIGCHLD] { sigaddset(&defaultSignals, signal) }
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &defaultSignals)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let input {
            posix_spawn_file_actions_adddup2(&actions, input, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        for (source, target) in descriptors { posix_spawn_file_actions_adddup2(&actions, source, target) }
        try closeInheritedDescriptors(from: max(3, descriptors.map { $0.target + 1 }.max() ?? 3), in: &actions)

        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, arguments[0], &actions, &attributes, argv, envp)
        guard status == 0 else {
            throw GPSDProcess.StartError(description: "cannot start \(arguments[0]): \(String(cString: strerror(status)))")
        }
        return pid
    }

    /// Adds to `actions` the closing, in the child, of every descriptor from `first` on.
    ///
    /// Without it a child inherits whatever this process has open without close-on-exec at
    /// that instant, such as the socket Foundation's `Process` hands each of its children
    /// (open here for a moment while one starts) and the pipes it gives them: the other child
    /// then stays "running" to Foundation after it exited, and its output never ends, until
    /// this one exits too. Swift's Glibc module hides `posix_spawn_file_actions_addclosefrom_np`
    /// (glibc 2.34 or later), so this goes through the Exec plugin's C shim, as the plugin does.
    /// - Throws: ``GPSDProcess/StartError`` when the C library refuses.
    public static func closeInheritedDescriptors(from first: Int32, in actions: inout posix_spawn_file_actions_t) throws {
        let status = cexec_spawn_add_closefrom(&actions, first)
        guard status == 0 else {
            throw GPSDProcess.StartError(description: "posix_spawn_file_actions_addclosefrom_np: \(String(cString: strerror(status)))")
        }
    }
}
