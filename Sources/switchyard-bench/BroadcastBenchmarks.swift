import Switchyard
import SwitchyardStreams

/// The `broadcast` benchmark cases.
func broadcastBenchmarks() -> [BenchmarkCase] {
    []
}
