import Dispatch
import Glibc

// Block the stop and reload signals before anything else runs, so every thread started later
// inherits the mask and a signal can only be taken by the listener's sigwait: a signal that
// arrives during start-up waits for it instead of killing the process or being lost.
var handledSignals = sigset_t()
sigemptyset(&handledSignals)
for signal in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&handledSignals, signal) }
pthread_sigmask(SIG_BLOCK, &handledSignals, nil)
// A reader that goes away (a closed pipe, a control client that disconnects) must give EPIPE
// to the writer, not kill the bus.
signal(SIGPIPE, SIG_IGN)

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
