#ifndef C_SWITCHYARD_STARTUP_H
#define C_SWITCHYARD_STARTUP_H

// The Swift program's (`switchyard`) first moments. A constructor in this target blocks
// SIGTERM, SIGINT and SIGHUP and ignores SIGPIPE before any Swift code of the executable runs,
// so every thread started later inherits the mask and a stop signal that arrives during
// start-up waits for the signal thread instead of killing the process. Linking this target is
// what installs it. It runs only after the dynamic loader has mapped every library; the
// `switchyard-launcher` (SwitchyardLauncher), which the systemd unit runs, blocks the signals
// before that, across its exec.

/// Non-zero once the constructor has run (the executable asserts it, so a build that dropped
/// the object file fails loudly instead of silently losing the guarantee).
int switchyard_startup_signals_blocked(void);

#endif
