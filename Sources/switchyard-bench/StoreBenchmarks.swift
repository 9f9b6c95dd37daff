import Switchyard
import SwitchyardStreams

/// The `store` benchmark cases.
func storeBenchmarks() -> [BenchmarkCase] {
    []
}
