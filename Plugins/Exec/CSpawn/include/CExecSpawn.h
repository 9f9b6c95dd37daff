#ifndef C_EXEC_SPAWN_H
#define C_EXEC_SPAWN_H

#include <spawn.h>
#include <sys/types.h>

// Swift's Glibc module is imported without _GNU_SOURCE, which hides the calls below; these
// wrappers are compiled with it. Each returns what the glibc call returns.

/// pipe2(fds, O_CLOEXEC), plus O_NONBLOCK on both ends when `nonblocking` is non-zero.
int cexec_pipe_cloexec(int fds[2], int nonblocking);

/// posix_spawn_file_actions_addclosefrom_np: the child closes every descriptor >= `from`.
int cexec_spawn_add_closefrom(posix_spawn_file_actions_t *actions, int from);

/// posix_spawn_file_actions_addchdir_np: the child changes to `path` before exec.
int cexec_spawn_add_chdir(posix_spawn_file_actions_t *actions, const char *path);

/// What `cexec_spawn` starts.
typedef struct {
    /// A path, or (with `search_path`) a name looked up in PATH.
    const char *executable;
    int search_path;
    char *const *argv;
    char *const *envp;
    /// Descriptors that become the child's 0, 1 and 2.
    int stdin_fd;
    int stdout_fd;
    int stderr_fd;
    /// The child's working directory; NULL keeps the bus's.
    const char *working_directory;
} cexec_spawn_options;

/// Starts a child that leads a process group of its own, has every signal at its default and
/// none blocked, keeps only descriptors 0-2, and is killed (SIGKILL) when the bus process
/// dies, however it dies (Linux PR_SET_PDEATHSIG; set before exec, with the race where the
/// bus died first closed by checking getppid). Children are forked by one thread that lives
/// as long as the process, because the death signal follows the forking thread. Returns 0 and
/// the pid, or the errno of the step that failed (exec included) with no child left behind.
/// The child is recorded for `cexec_children_kill_all` until `cexec_child_forget`.
int cexec_spawn(const cexec_spawn_options *options, pid_t *pid);

/// Stops recording `pid`; call it before reaping the child, so its number is never signalled
/// once it may belong to another process.
void cexec_child_forget(pid_t pid);

/// Sends `signal` to the process group of every recorded child; returns how many there were.
/// For a bus that must exit at once: its children's groups go with it.
int cexec_children_kill_all(int signal);

#endif
