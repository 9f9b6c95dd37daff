// A disk that takes its time to flush, preloaded into a bus (LD_PRELOAD) by the slow-disk bench
// case and the held-flush test; build it with `clang -shared -fPIC -o slow-flush.so
// Scripts/slow-flush.c -ldl`. Only `fdatasync` and `fsync` change; writes go through.
//
//   SWITCHYARD_SLOW_FLUSH_MS=N       every flush waits N milliseconds first (an SD card takes 10-100)
//   SWITCHYARD_SLOW_FLUSH_GATE=PATH  while PATH exists, every flush waits, and PATH.held is created
#define _GNU_SOURCE
#include <dlfcn.h>
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

int fdatasync(int descriptor) {
    static int (*next)(int);
    if (next == NULL) next = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
    wait_as_a_slow_disk();
    return next(descriptor);
}

int fsync(int descriptor) {
    static int (*next)(int);
    if (next == NULL) next = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
    wait_as_a_slow_disk();
    return next(descriptor);
}
