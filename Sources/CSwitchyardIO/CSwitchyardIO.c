#define _GNU_SOURCE
#include "CSwitchyardIO.h"

#include <fcntl.h>
#include <malloc.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef P_PIDFD
#define P_PIDFD 3
#endif

int csio_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

int csio_epoll_ctl(int epoll, int op, int fd, uint32_t events, uint64_t token) {
    struct epoll_event event = { .events = events, .data = { .u64 = token } };
    return epoll_ctl(epoll, op, fd, &event);
}

int csio_epoll_wait(int epoll, csio_event *out, int capacity, int timeout_ms) {
    struct epoll_event events[256];
    if (capacity > 256) capacity = 256;
    int count = epoll_wait(epoll, events, capacity, timeout_ms);
    for (int index = 0; index < count; index++) {
        out[index].events = events[index].events;
        out[index].token = events[index].data.u64;
    }
    return count;
}

int csio_eventfd(void) { return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK); }

int csio_pidfd_open(pid_t pid) { return (int)syscall(SYS_pidfd_open, pid, 0); }

int csio_pidfd_signal(int pidfd, int signal) { return (int)syscall(SYS_pidfd_send_signal, pidfd, signal, NULL, 0); }

int csio_pidfd_reap(int pidfd, int *exited, int *code, int *signal) {
    siginfo_t info = { 0 };
    if (waitid((idtype_t)P_PIDFD, (id_t)pidfd, &info, WEXITED | WNOHANG) != 0) return -1;
    *exited = info.si_pid != 0;
    *code = info.si_code == CLD_EXITED ? info.si_status : 0;
    *signal = info.si_code == CLD_EXITED ? 0 : info.si_status;
    return 0;
}

int csio_pidfd_exited(int pidfd) {
    siginfo_t info = { 0 };
    if (waitid((idtype_t)P_PIDFD, (id_t)pidfd, &info, WEXITED | WNOHANG | WNOWAIT) != 0) return -1;
    return info.si_pid != 0;
}

void csio_name_thread(const char *name) {
    char truncated[16];
    strncpy(truncated, name, sizeof truncated - 1);
    truncated[sizeof truncated - 1] = 0;
    pthread_setname_np(pthread_self(), truncated);
}

int csio_set_thread_niceness(int niceness) {
    return setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), niceness);
}

int csio_thread_niceness(void) {
    return getpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid));
}

void csio_block_sigpipe(void) {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &set, NULL);
}

int csio_pipe(int fds[2]) { return pipe2(fds, O_CLOEXEC | O_NONBLOCK); }

int csio_malloc_trim(void) {
    return malloc_trim(0);
}
