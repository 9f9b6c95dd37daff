#include <signal.h>
#include <stddef.h>

#include "CSwitchyardStartup.h"

static int signals_blocked = 0;

// Priority 101 is the earliest a program may use: it runs before the executable's other
// constructors (the Swift runtime registers its own from the libraries' init sections).
__attribute__((constructor(101))) static void switchyard_block_signals(void) {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGHUP);
    if (sigprocmask(SIG_BLOCK, &set, NULL) == 0) signals_blocked = 1;
    // A reader that goes away must give EPIPE to the writer, not kill the bus.
    signal(SIGPIPE, SIG_IGN);
}

int switchyard_startup_signals_blocked(void) {
    return signals_blocked;
}
