import Switchyard
import SwitchyardStreams

/// The `bus` benchmark cases.
func busBenchmarks() -> [BenchmarkCase] {
    []
}
