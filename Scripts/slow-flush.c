// A disk that takes its time to flush, or fails to, preloaded into a bus (LD_PRELOAD) by the
// slow-disk bench case and the flush fault tests; build it with `clang -shared -fPIC -o slow-flush.so
// Scripts/slow-flush.c -ldl`. Only `fdatasync` and `fsync` change; writes go through.
//
//   SWITCHYARD_SLOW_FLUSH_MS=N       every flush waits N milliseconds first (an SD card takes 10-100)
//   SWITCHYARD_SLOW_FLUSH_GATE=PATH  while PATH exists, every flush waits, and PATH.held is created
//   SWITCHYARD_SLOW_FLUSH_FAIL=PATH  while PATH exists, every flush fails with EIO (a dying card)
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void wait_as_a_slow_disk(void) {
    const char *delay = getenv("SWITCHYARD_SLOW_FLUSH_MS");
    if (delay != NULL) usleep((useconds_t)atoi(delay) * 1000);
    const char *gate = getenv("SWITCHYARD_SLOW_FLUSH_GATE");
    if (gate == NULL || access(gate, F_OK) != 0) return;
    char held[4096];
    snprintf(held, sizeof held, "%s.held", gate);
    int marker = open(held, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
    if (marker >= 0) close(marker);
    while (access(gate, F_OK) == 0) usleep(10000);
}

static int fails_as_a_dying_disk(void) {
    const char *fail = getenv("SWITCHYARD_SLOW_FLUSH_FAIL");
    if (fail == NULL || access(fail, F_OK) != 0) return 0;
    errno = EIO;
    return 1;
}

// Each flush call looks up the C library's own on first use and calls it after the wait.
#define SLOW_FLUSH(name)                                                   \
    int name(int descriptor) {                                             \
        static int (*next)(int);                                           \
        if (next == NULL) next = (int (*)(int))dlsym(RTLD_NEXT, #name);    \
        wait_as_a_slow_disk();                                             \
        if (fails_as_a_dying_disk()) return -1;                            \
        return next(descriptor);                                           \
    }

SLOW_FLUSH(fdatasync)
SLOW_FLUSH(fsync)
