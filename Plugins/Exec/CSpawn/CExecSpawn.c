#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "CExecSpawn.h"

int cexec_pipe_cloexec(int fds[2], int nonblocking) {
    return pipe2(fds, O_CLOEXEC | (nonblocking ? O_NONBLOCK : 0));
}

int cexec_spawn_add_closefrom(posix_spawn_file_actions_t *actions, int from) {
    return posix_spawn_file_actions_addclosefrom_np(actions, from);
}

int cexec_spawn_add_chdir(posix_spawn_file_actions_t *actions, const char *path) {
    return posix_spawn_file_actions_addchdir_np(actions, path);
}

// MARK: - The registry of live children

// The process groups of every child started here and not yet reaped, so a bus that must exit
// at once can take them all with it. A fixed table: a bus runs a handful of exec plugins.
#define CEXEC_MAX_CHILDREN 4096
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static pid_t registry[CEXEC_MAX_CHILDREN];
static int registry_count = 0;

static void registry_add(pid_t pid) {
    pthread_mutex_lock(&registry_lock);
    if (registry_count < CEXEC_MAX_CHILDREN) registry[registry_count++] = pid;
    pthread_mutex_unlock(&registry_lock);
}

void cexec_child_forget(pid_t pid) {
    pthread_mutex_lock(&registry_lock);
    for (int index = 0; index < registry_count; index++) {
        if (registry[index] == pid) {
            registry[index] = registry[--registry_count];
            break;
        }
    }
    pthread_mutex_unlock(&registry_lock);
}

int cexec_children_kill_all(int signal) {
    pthread_mutex_lock(&registry_lock);
    int count = registry_count;
    for (int index = 0; index < registry_count; index++) kill(-registry[index], signal);
    pthread_mutex_unlock(&registry_lock);
    return count;
}

// MARK: - Spawning from a thread that never ends

// PR_SET_PDEATHSIG fires when the thread that forked the child ends, not the process; the
// bus's worker threads come and go, so every child is forked by one thread that lives as long
// as the process. Callers hand it a request and wait for the answer.
struct spawn_request {
    const cexec_spawn_options *options;
    pid_t pid;
    int error;
    int done;
};

static pthread_mutex_t spawner_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t spawner_wake = PTHREAD_COND_INITIALIZER;
static pthread_cond_t spawner_done = PTHREAD_COND_INITIALIZER;
static struct spawn_request *pending = NULL;
static pthread_once_t spawner_once = PTHREAD_ONCE_INIT;
static int spawner_start_error = 0;

static void write_errno_and_exit(int pipe, int error) {
    while (write(pipe, &error, sizeof error) < 0 && errno == EINTR) {}
    _exit(127);
}

// Runs in the forked child: only async-signal-safe calls until exec.
static void become_child(const cexec_spawn_options *options, pid_t parent, int error_pipe) {
    if (setpgid(0, 0) != 0) write_errno_and_exit(error_pipe, errno);
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) write_errno_and_exit(error_pipe, errno);
    // The bus may have died between fork and prctl; then no signal will ever come.
    if (getppid() != parent) _exit(127);
    int streams[3] = {options->stdin_fd, options->stdout_fd, options->stderr_fd};
    for (int target = 0; target < 3; target++) {
        if (streams[target] == target) {
            int flags = fcntl(target, F_GETFD);
            if (flags < 0 || fcntl(target, F_SETFD, flags & ~FD_CLOEXEC) != 0) write_errno_and_exit(error_pipe, errno);
        } else if (dup2(streams[target], target) < 0) {
            write_errno_and_exit(error_pipe, errno);
        }
    }
    // Everything else closes at exec (the error pipe too, which tells the parent exec worked).
    syscall(SYS_close_range, 3U, ~0U, 4U /* CLOSE_RANGE_CLOEXEC */);
    if (options->working_directory != NULL && chdir(options->working_directory) != 0) {
        write_errno_and_exit(error_pipe, errno);
    }
    // The bus blocks its stop signals and ignores SIGPIPE; neither may reach the child.
    struct sigaction defaults;
    memset(&defaults, 0, sizeof defaults);
    defaults.sa_handler = SIG_DFL;
    for (int signal = 1; signal < NSIG; signal++) {
        if (signal != SIGKILL && signal != SIGSTOP) sigaction(signal, &defaults, NULL);
    }
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    if (options->search_path) {
        execvpe(options->executable, options->argv, options->envp);
    } else {
        execve(options->executable, options->argv, options->envp);
    }
    write_errno_and_exit(error_pipe, errno);
}

static void perform(struct spawn_request *request) {
    int error_pipe[2];
    if (pipe2(error_pipe, O_CLOEXEC) != 0) {
        request->error = errno;
        return;
    }
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        request->error = errno;
        close(error_pipe[0]);
        close(error_pipe[1]);
        return;
    }
    if (pid == 0) {
        close(error_pipe[0]);
        become_child(request->options, parent, error_pipe[1]);
    }
    close(error_pipe[1]);
    int child_error = 0;
    ssize_t count;
    while ((count = read(error_pipe[0], &child_error, sizeof child_error)) < 0 && errno == EINTR) {}
    close(error_pipe[0]);
    if (count == (ssize_t)sizeof child_error) {
        int status;
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
        request->error = child_error;
        return;
    }
    registry_add(pid);
    request->pid = pid;
}

static void *spawner_main(void *unused) {
    (void)unused;
    pthread_mutex_lock(&spawner_lock);
    for (;;) {
        while (pending == NULL) pthread_cond_wait(&spawner_wake, &spawner_lock);
        struct spawn_request *request = pending;
        pending = NULL;
        pthread_mutex_unlock(&spawner_lock);
        perform(request);
        pthread_mutex_lock(&spawner_lock);
        request->done = 1;
        pthread_cond_broadcast(&spawner_done);
    }
    return NULL;
}

static void start_spawner(void) {
    pthread_t thread;
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    spawner_start_error = pthread_create(&thread, &attributes, spawner_main, NULL);
    pthread_attr_destroy(&attributes);
}

int cexec_spawn(const cexec_spawn_options *options, pid_t *pid) {
    pthread_once(&spawner_once, start_spawner);
    if (spawner_start_error != 0) return spawner_start_error;
    struct spawn_request request = {options, 0, 0, 0};
    pthread_mutex_lock(&spawner_lock);
    // One request at a time: wait for the slot, hand it over, wait for the answer.
    while (pending != NULL) pthread_cond_wait(&spawner_done, &spawner_lock);
    pending = &request;
    pthread_cond_signal(&spawner_wake);
    while (!request.done) pthread_cond_wait(&spawner_done, &spawner_lock);
    pthread_mutex_unlock(&spawner_lock);
    if (request.error != 0) return request.error;
    *pid = request.pid;
    return 0;
}
