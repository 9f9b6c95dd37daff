import SwitchyardStreams

// The `operator` cases of the operators that run in the consumer's `next` (issue 34), each
// against the same result computed by hand in the consuming loop. A consumer that does not see
// every element reads a source tapped by its tally, so the elements read are taken too.

// MARK: Operators in the consumer's next

func prependAppend(_ values: [Int]) async {
    let tally = Tally()
    for await value in BenchmarkValues(values, 0..<values.count - 2).prepend(-1).append(-2) { tally.take(value) }
    tally.finish()
}

func replaceEmpty(_ values: [Int]) async {
    let tally = Tally()
    for await value in BenchmarkValues(values).replaceEmpty(with: -1) { tally.take(value) }
    tally.finish()
}

/// Baseline: the plain source, each element taken.
func takenByHand(_ values: [Int]) async {
    let tally = Tally()
    for await value in BenchmarkValues(values) { tally.take(value) }
    tally.finish()
}

func ignoreOutput(_ values: [Int]) async {
    let tally = Tally()
    for await _ in BenchmarkValues(values, tap: tally).ignoreOutput() {}
    tally.finish()
}

/// Baseline: the plain source read to its end, each element taken as it is read.
func readByHand(_ values: [Int]) async {
    let tally = Tally()
    for await _ in BenchmarkValues(values, tap: tally) {}
    tally.finish()
}

func adjacentPairs(_ values: [Int]) async {
    let tally = Tally()
    for await (before, after) in BenchmarkValues(values).adjacentPairs() { tally.take(after &- before) }
    tally.finish()
}

/// Baseline: the consumer keeps the previous element itself.
func adjacentPairsByHand(_ values: [Int]) async {
    var previous: Int?
    let tally = Tally()
    for await value in BenchmarkValues(values) {
        if let previous { tally.take(value &- previous) }
        previous = value
    }
    tally.finish()
}

/// Half the values with a separator between each two: about as many elements as the others.
func interspersed(_ values: [Int]) async {
    let tally = Tally()
    for await value in halves(values).0.interspersed(with: -1) { tally.take(value) }
    tally.finish()
}

/// Baseline: the consumer adds the separators itself.
func interspersedByHand(_ values: [Int]) async {
    let tally = Tally()
    var first = true
    for await value in halves(values).0 {
        if !first { tally.take(-1) }
        first = false
        tally.take(value)
    }
    tally.finish()
}

func lastElement(_ values: [Int]) async {
    let tally = Tally()
    blackHole(await BenchmarkValues(values, tap: tally).last { $0 % 3 == 0 } ?? 0)
    tally.finish()
}

/// Baseline: the consumer keeps the last match itself.
func lastByHand(_ values: [Int]) async {
    let tally = Tally()
    var last = 0
    for await value in BenchmarkValues(values, tap: tally) where value % 3 == 0 { last = value }
    blackHole(last)
    tally.finish()
}

// MARK: Timer

/// As many ticks as values, 1 ns apart on a clock whose sleeps return at once: the
/// operator's own work per tick.
func timerTicks(_ values: [Int]) async {
    let tally = Tally()
    var ticks = timer(every: .nanoseconds(1), clock: SkippingClock()).makeAsyncIterator()
    for _ in values {
        guard let tick = await ticks.next() else { break }
        tally.take(tick.nanoseconds)
    }
    tally.finish()
}

/// Baseline: the consumer sleeps until each tick itself, on the same kind of clock.
func ticksByHand(_ values: [Int]) async {
    let tally = Tally()
    let clock = SkippingClock()
    var tick = clock.now
    for _ in values {
        tick = tick.advanced(by: .nanoseconds(1))
        guard (try? await clock.sleep(until: tick, tolerance: nil)) != nil else { break }
        tally.take(tick.nanoseconds)
    }
    tally.finish()
}
