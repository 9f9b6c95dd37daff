#ifndef C_SWITCHYARD_IO_H
#define C_SWITCHYARD_IO_H

#include <stdint.h>
#include <sys/types.h>

// Swift's Glibc module does not import epoll, eventfd or the pidfd calls, and struct
// epoll_event is packed on x86-64, which Swift cannot lay out; these wrappers take plain
// arguments. Each returns what the system call returns (-1 with errno set on failure).

/// One ready descriptor as `csio_epoll_wait` reports it.
typedef struct {
    uint32_t events;
    uint64_t token;
} csio_event;

/// The epoll event bits, as Swift cannot see the enum.
enum {
    CSIO_IN = 0x001,
    CSIO_OUT = 0x004,
    CSIO_ERR = 0x008,
    CSIO_HUP = 0x010,
    CSIO_RDHUP = 0x2000,
    CSIO_ET = (int)(1u << 31),
};

/// epoll_create1(EPOLL_CLOEXEC).
int csio_epoll_create(void);

/// epoll_ctl with EPOLL_CTL_ADD (`op` 1), EPOLL_CTL_DEL (2) or EPOLL_CTL_MOD (3).
int csio_epoll_ctl(int epoll, int op, int fd, uint32_t events, uint64_t token);

/// epoll_wait into `out`, converting from the packed layout.
int csio_epoll_wait(int epoll, csio_event *out, int capacity, int timeout_ms);

/// eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK).
int csio_eventfd(void);

/// pidfd_open(pid, 0): a close-on-exec descriptor that becomes readable when `pid` exits.
int csio_pidfd_open(pid_t pid);

/// pidfd_send_signal(pidfd, signal, NULL, 0).
int csio_pidfd_signal(int pidfd, int signal);

/// waitid(P_PIDFD, pidfd, WEXITED | WNOHANG): 0 and the status when the child has exited
/// (`exited` 1, `code` its exit code or `signal` the signal that killed it), 0 with `exited`
/// 0 while it runs, -1 with errno on failure.
int csio_pidfd_reap(int pidfd, int *exited, int *code, int *signal);

/// waitid(P_PIDFD, pidfd, WEXITED | WNOHANG | WNOWAIT): 1 when the child has exited (it stays
/// a zombie, so its pid and process group id cannot be reused yet), 0 while it runs, -1 with
/// errno on failure.
int csio_pidfd_exited(int pidfd);

/// Blocks SIGPIPE for the calling thread: a write to a pipe whose reader is gone then fails
/// with EPIPE instead of killing the process.
void csio_block_sigpipe(void);

/// Names the calling thread, as `top -H` and /proc/PID/task/TID/comm show it (the first 15
/// bytes: Linux keeps no more).
void csio_name_thread(const char *name);

/// setpriority(PRIO_PROCESS, gettid(), niceness): Linux applies a nice value per thread.
/// 0 on success, -1 with errno.
int csio_set_thread_niceness(int niceness);

/// getpriority(PRIO_PROCESS, gettid()): the calling thread's nice value.
int csio_thread_niceness(void);

/// pipe2(fds, O_CLOEXEC | O_NONBLOCK).
int csio_pipe(int fds[2]);

/// malloc_trim(0), which Swift's Glibc module does not import: returns the free pages of every
/// malloc arena to the system; 1 when some were released.
int csio_malloc_trim(void);

#endif
