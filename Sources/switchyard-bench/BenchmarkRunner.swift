import SwitchyardBus

/// Runs benchmark cases and prints one line (or one JSON object) per case.
struct BenchmarkRunner {
    /// How often each body runs; the median is reported.
    var repetitions = 5
    /// Print JSON objects instead of a table.
    var json = false
    /// Only run cases whose name contains this text.
    var filter: String?

    func run(_ cases: [BenchmarkCase]) async {
        let selected = cases.filter { benchmark in
            filter.map { benchmark.name.contains($0) } ?? true
        }
        if !json {
            print("switchyard-bench: \(selected.count) cases, median of \(repetitions) runs each")
        }
        for benchmark in selected {
            var figures: [Double] = []
            var baselines: [Double] = []
            for _ in 0..<repetitions {
                figures.append(await benchmark.measure())
                baselines.append(await benchmark.baseline())
            }
            report(benchmark, value: median(figures), baseline: median(baselines))
        }
    }

    private func report(_ benchmark: BenchmarkCase, value: Double, baseline: Double) {
        // A case whose bus never answered measures nothing (an infinite latency, say): say so
        // and go on with the other cases instead of trapping on the conversion to digits.
        guard value.isFinite, baseline.isFinite else {
            let what = value.isFinite ? "its baseline" : "it"
            print(json ? "{\"case\": \"\(benchmark.name)\", \"error\": \"\(what) measured nothing\"}"
                       : pad(benchmark.name, 26) + "FAILED: \(what) measured nothing (value \(value), baseline \(baseline))")
            return
        }
        let ratio = benchmark.higherIsBetter ? value / max(baseline, 1e-12) : baseline / max(value, 1e-12)
        if json {
            var fields = ["\"case\": \"\(benchmark.name)\""]
            if let subscribers = benchmark.subscribers { fields.append("\"subscribers\": \(subscribers)") }
            fields.append("\"value\": \(rounded(value))")
            fields.append("\"unit\": \"\(benchmark.unit)\"")
            fields.append("\"baseline\": \(rounded(baseline))")
            fields.append("\"ratio\": \(rounded(ratio, places: 2))")
            if let target = benchmark.target { fields.append("\"target\": \(rounded(target))") }
            if let ratioTarget = benchmark.ratioTarget { fields.append("\"ratioTarget\": \(rounded(ratioTarget, places: 2))") }
            if let note = benchmark.note?() { fields.append("\"note\": \"\(note)\"") }
            print("{" + fields.joined(separator: ", ") + "}")
            return
        }
        var line = pad(benchmark.name, 26)
        line += pad(benchmark.subscribers.map { "subscribers=\($0)" } ?? "", 16)
        line += pad("\(grouped(value)) \(benchmark.unit)", 26)
        line += pad("baseline \(grouped(baseline))", 22)
        // Two places: the targets that are ratios (0.5×, 0.7×, 0.9×) sit between tenths.
        line += "ratio \(rounded(ratio, places: 2))x"
        if let target = benchmark.target {
            let met = benchmark.higherIsBetter ? value >= target : value <= target
            line += "  target \(grouped(target)) \(met ? "met" : "MISSED")"
        }
        if let ratioTarget = benchmark.ratioTarget {
            line += "  target ≥ \(grouped(ratioTarget))x \(ratio >= ratioTarget ? "met" : "MISSED")"
        }
        if let note = benchmark.note?() { line += "  (\(note))" }
        print(line)
    }
}

private func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
}

private func rounded(_ value: Double, places: Int = 0) -> String {
    if places == 0 { return String(Int64(value.rounded())) }
    var scale = 1.0
    for _ in 0..<places { scale *= 10 }
    let scaled = (value * scale).rounded() / scale
    return "\(scaled)"
}

private func grouped(_ value: Double) -> String {
    if value < 100 { return rounded(value, places: 2) }
    let digits = String(Int64(value.rounded()))
    var result = ""
    for (offset, character) in digits.reversed().enumerated() {
        if offset > 0, offset % 3 == 0 { result.append(",") }
        result.append(character)
    }
    return String(result.reversed())
}

/// `text` in a column of `width`, always followed by at least one space.
private func pad(_ text: String, _ width: Int) -> String {
    text.padded(to: width - 1) + " "
}
