import SwitchyardIO
/// One benchmark case: a measured body and the plain baseline it is compared with in the same run.
///
/// Both closures return a figure in ``unit``; the runner repeats each and keeps the median, so a
/// noisy neighbour moves figure and baseline alike and the ratio holds.
struct BenchmarkCase: Sendable {
    /// The stable case name, such as `store.dispatch` or `operator.debounce`.
    var name: String
    /// The number of subscribers the case fans out to, when that is what varies.
    var subscribers: Int?
    /// The unit of both figures, such as `actions/s`.
    var unit: String
    /// Whether a larger figure is better (throughput) or a smaller one (latency, memory).
    var higherIsBetter = true
    /// The figure DESIGN.md asks for, printed beside the measurement; `nil` when none is set.
    var target: Double?
    /// The least ratio to the baseline DESIGN.md or an issue asks for, printed beside the
    /// measured ratio with whether it was met; `nil` when none is set.
    var ratioTarget: Double? = nil
    /// Measures the case once and returns its figure.
    var measure: @Sendable () async -> Double
    /// Measures the baseline once and returns its figure.
    var baseline: @Sendable () async -> Double
    /// A remark printed after the figures, read once all repetitions ran (such as whether a
    /// reader kept up); `nil` when the case has none.
    var note: (@Sendable () -> String)? = nil
}

/// Times `body`, which handles `count` elements, and returns elements per second.
func throughput(count: Int, _ body: () async -> Void) async -> Double {
    let clock = ContinuousClock()
    let elapsed = await clock.measure { await body() }
    let seconds = elapsed.secondsValue
    return Double(count) / max(seconds, 1e-9)
}
