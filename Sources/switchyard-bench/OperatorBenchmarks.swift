import SwitchyardBus
import SwitchyardStreams

/// The `operator` benchmark cases. Each measures elements taken from the source per second
/// through an operator over a source that never suspends, against the same work done with
/// plain `AsyncStream`s, in the same run. Every consumer hands each element to a ``Tally``.
func operatorBenchmarks() -> [BenchmarkCase] {
    let values = benchmarkValues(count: 200_000)
    let runsOfFour = benchmarkValues(count: 200_000, runLength: 4)
    return [
        operatorCase("map-filter-chain", values, ratioTarget: 10, measure: mapFilterChain, baseline: mapFilterChainOfTasks),
        operatorCase("merge", values, measure: mergeOfTwo, baseline: mergeIntoOneStream),
        operatorCase("combine-latest", values, measure: combineLatestOfTwo, baseline: combineLatestThroughOneStream),
        operatorCase("remove-duplicates", runsOfFour, measure: removeDuplicates, baseline: removeDuplicatesAfterAStream),
        operatorCase("debounce", values, measure: debounceBurst, baseline: debounceBurstWithTaskPerElement),
    ] + shapingOperatorBenchmarks(values)
}

/// A case named `operator.name` that times `measure` and `baseline` over `values`.
func operatorCase(
    _ name: String,
    _ values: [Int],
    ratioTarget: Double? = nil,
    measure: @escaping @Sendable ([Int]) async -> Void,
    baseline: @escaping @Sendable ([Int]) async -> Void
) -> BenchmarkCase {
    BenchmarkCase(
        name: "operator.\(name)",
        unit: "elements/s",
        ratioTarget: ratioTarget,
        measure: { await throughput(count: values.count) { await measure(values) } },
        baseline: { await throughput(count: values.count) { await baseline(values) } }
    )
}

/// Takes the sum of each pair `pairs` emits, for the cases that pair two inputs.
func takeSums<Pairs: AsyncSequence<(Int, Int), Never>>(of pairs: Pairs) async {
    let tally = Tally()
    for await (left, right) in pairs { tally.take(left &+ right) }
    tally.finish()
}

/// The first and second halves of `values`, for the cases with two inputs.
func halves(_ values: [Int]) -> (BenchmarkValues, BenchmarkValues) {
    let middle = values.count / 2
    return (BenchmarkValues(values, 0..<middle), BenchmarkValues(values, middle..<values.count))
}

// MARK: Map/filter chain

/// Six stages of the standard library's `map`/`filter` over a source that never suspends:
/// the whole chain runs inside the consumer's `next`.
private func mapFilterChain(_ values: [Int]) async {
    let chain = BenchmarkValues(values)
        .map { $0 &+ 1 }
        .filter { $0 % 7 != 0 }
        .map { $0 &* 3 }
        .filter { $0 % 5 != 0 }
        .map { $0 &- 2 }
        .filter { $0 >= 0 }
    let tally = Tally()
    for await value in chain { tally.take(value) }
    tally.finish()
}

/// Baseline: the same six stages, each a task that reads one `AsyncStream` and feeds the
/// next, the way a pipeline is built from AsyncStream alone.
private func mapFilterChainOfTasks(_ values: [Int]) async {
    let stages: [@Sendable (Int) -> Int?] = [
        { $0 &+ 1 },
        { $0 % 7 != 0 ? $0 : nil },
        { $0 &* 3 },
        { $0 % 5 != 0 ? $0 : nil },
        { $0 &- 2 },
        { $0 >= 0 ? $0 : nil },
    ]
    let (source, feed) = AsyncStream<Int>.makeStream()
    var tasks: [Task<Void, Never>] = []
    var upstream = source
    for stage in stages {
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        let input = upstream
        tasks.append(Task {
            for await value in input {
                if let output = stage(value) { continuation.yield(output) }
            }
            continuation.finish()
        })
        upstream = stream
    }
    tasks.append(Task {
        for value in values { feed.yield(value) }
        feed.finish()
    })
    let tally = Tally()
    for await value in upstream { tally.take(value) }
    for task in tasks { await task.value }
    tally.finish()
}

// MARK: Merge

private func mergeOfTwo(_ values: [Int]) async {
    let (first, second) = halves(values)
    let tally = Tally()
    for await value in first.merge(with: second) { tally.take(value) }
    tally.finish()
}

/// Baseline: two tasks yield into one `AsyncStream`.
private func mergeIntoOneStream(_ values: [Int]) async {
    let (stream, continuation) = AsyncStream<Int>.makeStream()
    let (first, second) = halves(values)
    let producers = Task {
        await withTaskGroup(of: Void.self) { group in
            for input in [first, second] {
                group.addTask { for await value in input { continuation.yield(value) } }
            }
        }
        continuation.finish()
    }
    let tally = Tally()
    for await value in stream { tally.take(value) }
    await producers.value
    tally.finish()
}

// MARK: CombineLatest

private func combineLatestOfTwo(_ values: [Int]) async {
    let (first, second) = halves(values)
    await takeSums(of: first.combineLatest(second))
}

/// Baseline: two tasks yield tagged values into one `AsyncStream`; the consumer keeps the
/// latest of each and forms the pair itself.
private func combineLatestThroughOneStream(_ values: [Int]) async {
    let (stream, continuation) = AsyncStream<(side: Int, value: Int)>.makeStream()
    let (first, second) = halves(values)
    let producers = Task {
        await withTaskGroup(of: Void.self) { group in
            for (side, input) in [first, second].enumerated() {
                group.addTask { for await value in input { continuation.yield((side, value)) } }
            }
        }
        continuation.finish()
    }
    var latest: [Int?] = [nil, nil]
    let tally = Tally()
    for await (side, value) in stream {
        latest[side] = value
        if let left = latest[0], let right = latest[1] { tally.take(left &+ right) }
    }
    await producers.value
    tally.finish()
}

// MARK: RemoveDuplicates

/// Runs of four equal values; the source's tally takes every element read, as only one in
/// four comes out.
private func removeDuplicates(_ values: [Int]) async {
    let read = Tally()
    let tally = Tally()
    for await value in BenchmarkValues(values, tap: read).removeDuplicates() { tally.take(value) }
    read.finish()
    tally.finish()
}

/// Baseline: a task yields the values into an `AsyncStream`; the consumer drops repeats.
private func removeDuplicatesAfterAStream(_ values: [Int]) async {
    let (stream, continuation) = AsyncStream<Int>.makeStream()
    let producer = Task {
        let read = Tally()
        for await value in BenchmarkValues(values, tap: read) { continuation.yield(value) }
        continuation.finish()
        read.finish()
    }
    var last: Int?
    let tally = Tally()
    for await value in stream where value != last {
        last = value
        tally.take(value)
    }
    await producer.value
    tally.finish()
}

// MARK: Debounce

/// A burst of all the values debounced by 1 ms; the burst ends with the source, which
/// delivers the last element.
private func debounceBurst(_ values: [Int]) async {
    let tally = Tally()
    for await value in BenchmarkValues(values).debounce(for: .milliseconds(1)) { tally.take(value) }
    tally.finish()
}

/// Baseline: a hand-written debounce on `AsyncStream` that starts a sleeping task per element
/// and cancels the previous one, the usual way to debounce without an operator.
private func debounceBurstWithTaskPerElement(_ values: [Int]) async {
    let (stream, continuation) = AsyncStream<Int>.makeStream()
    let debouncer = Task {
        var pending: Task<Void, Never>?
        var last: Int?
        for await value in BenchmarkValues(values) {
            pending?.cancel()
            last = value
            pending = Task {
                guard (try? await Task.sleep(for: .milliseconds(1))) != nil else { return }
                continuation.yield(value)
            }
        }
        pending?.cancel()
        if let last { continuation.yield(last) }
        continuation.finish()
    }
    let tally = Tally()
    for await value in stream { tally.take(value) }
    await debouncer.value
    tally.finish()
}
