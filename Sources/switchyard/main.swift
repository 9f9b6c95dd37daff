import CSwitchyardStartup
import Dispatch
import Glibc

// SIGTERM, SIGINT and SIGHUP are blocked, with SIGPIPE ignored, by a C constructor before any
// Swift code; under systemd, `switchyard-launcher` blocked them before it exec'd this program
// (the mask survives exec, so they were blocked while the dynamic loader ran too). Every
// thread inherits the mask and a signal can only be taken by the listener's sigwait: one that
// arrives during start-up waits for it instead of killing the process or being lost. Blocking
// here again costs nothing and keeps the guarantee should the constructor ever not have run.
precondition(switchyard_startup_signals_blocked() != 0, "the start-up constructor did not block the stop signals")
var handledSignals = sigset_t()
sigemptyset(&handledSignals)
for signal in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&handledSignals, signal) }
pthread_sigmask(SIG_BLOCK, &handledSignals, nil)

let signals = SignalListener(signals: [SIGTERM, SIGINT, SIGHUP])
// A synchronous main that parks on a semaphore keeps the main thread's mask blocked; an async
// top-level main would hand the thread to dispatch_main, which unblocks every signal.
let finished = DispatchSemaphore(value: 0)
let outcome = ExitOutcome()
Task.detached {
    outcome.status = await SwitchyardCommand(arguments: Array(CommandLine.arguments.dropFirst()), signals: signals).run()
    finished.signal()
}
finished.wait()
exit(outcome.status.rawValue)
