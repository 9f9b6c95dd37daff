import Glibc

// Block the stop and reload signals before anything else runs, so every thread the runtime
// starts inherits the mask: the signals then wait for the Dispatch sources (signalfd on Linux)
// instead of killing the process or being lost before the sources exist.
var handledSignals = sigset_t()
sigemptyset(&handledSignals)
for signal in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&handledSignals, signal) }
pthread_sigmask(SIG_BLOCK, &handledSignals, nil)

let status = await SwitchyardCommand(arguments: Array(CommandLine.arguments.dropFirst())).run()
exit(status.rawValue)
