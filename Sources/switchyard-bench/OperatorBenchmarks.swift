import Switchyard
import SwitchyardStreams

/// The `operator` benchmark cases.
func operatorBenchmarks() -> [BenchmarkCase] {
    []
}
