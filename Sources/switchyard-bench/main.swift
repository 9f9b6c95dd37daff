import Foundation

// Benchmarks for Switchyard. Run in release mode: `swift run -c release switchyard-bench`.
// Flags: --json (one JSON object per case), --filter TEXT, --repetitions N.

// A peer that stops mid-case (a NATS server ended after a stalled measurement) must end that
// case's figure, not the whole run: writes to it fail with EPIPE instead of killing us.
signal(SIGPIPE, SIG_IGN)

var runner = BenchmarkRunner()
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--json": runner.json = true
    case "--filter": runner.filter = arguments.popFirst()
    case "--repetitions": runner.repetitions = arguments.popFirst().flatMap(Int.init) ?? runner.repetitions
    case "--help", "-h":
        print("usage: switchyard-bench [--json] [--filter TEXT] [--repetitions N]")
        exit(0)
    default:
        print("switchyard-bench: unknown argument \(argument)")
        exit(2)
    }
}

#if DEBUG
if !runner.json { print("warning: a debug build; run `swift run -c release switchyard-bench` for real figures") }
#endif

await runner.run(broadcastBenchmarks() + storeBenchmarks() + storeFanoutBenchmarks() + operatorBenchmarks() + busBenchmarks() + httpBenchmarks() + natsBenchmarks()
                 + historyBenchmarks() + handoffBenchmarks())
