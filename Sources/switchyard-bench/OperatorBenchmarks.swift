import Switchyard
import SwitchyardStreams

/// The `operator` benchmark cases. Each measures elements taken from the source per second
/// through an operator over a source that never suspends, against the same work done with
/// plain `AsyncStream`s, in the same run.
func operatorBenchmarks() -> [BenchmarkCase] {
    let count = 200_000
    return [
        BenchmarkCase(
            name: "operator.map-filter-chain",
            unit: "elements/s",
            ratioTarget: 10,
            measure: { await throughput(count: count) { await mapFilterChain(count) } },
            baseline: { await throughput(count: count) { await mapFilterChainOfTasks(count) } }
        ),
        BenchmarkCase(
            name: "operator.merge",
            unit: "elements/s",
            measure: { await throughput(count: count) { await mergeOfTwo(count) } },
            baseline: { await throughput(count: count) { await mergeIntoOneStream(count) } }
        ),
        BenchmarkCase(
            name: "operator.combine-latest",
            unit: "elements/s",
            measure: { await throughput(count: count) { await combineLatestOfTwo(count) } },
            baseline: { await throughput(count: count) { await combineLatestThroughOneStream(count) } }
        ),
        BenchmarkCase(
            name: "operator.remove-duplicates",
            unit: "elements/s",
            measure: { await throughput(count: count) { await removeDuplicates(count) } },
            baseline: { await throughput(count: count) { await removeDuplicatesAfterAStream(count) } }
        ),
        BenchmarkCase(
            name: "operator.debounce",
            unit: "elements/s",
            measure: { await throughput(count: count) { await debounceBurst(count) } },
            baseline: { await throughput(count: count) { await debounceBurstWithTaskPerElement(count) } }
        ),
    ] + shapingOperatorBenchmarks(count: count)
}

// MARK: Map/filter chain

/// Six stages of the standard library's `map`/`filter` over a source that never suspends:
/// the whole chain runs inside the consumer's `next`.
private func mapFilterChain(_ count: Int) async {
    let chain = CountingSequence(count: count)
        .map { $0 &+ 1 }
        .filter { $0 % 7 != 0 }
        .map { $0 &* 3 }
        .filter { $0 % 5 != 0 }
        .map { $0 &- 2 }
        .filter { $0 >= 0 }
    var sum = 0
    for await value in chain { sum &+= value }
    blackHole(sum)
}

/// Baseline: the same six stages, each a task that reads one `AsyncStream` and feeds the
/// next, the way a pipeline is built from AsyncStream alone.
private func mapFilterChainOfTasks(_ count: Int) async {
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
        for value in 0..<count { feed.yield(value) }
        feed.finish()
    })
    var sum = 0
    for await value in upstream { sum &+= value }
    for task in tasks { await task.value }
    blackHole(sum)
}

// MARK: Merge

private func mergeOfTwo(_ count: Int) async {
    var received = 0
    for await _ in CountingSequence(count: count / 2).merge(with: CountingSequence(count: count / 2)) {
        received += 1
    }
    blackHole(received)
}

/// Baseline: two tasks yield into one `AsyncStream`.
private func mergeIntoOneStream(_ count: Int) async {
    let (stream, continuation) = AsyncStream<Int>.makeStream()
    let producers = Task {
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<2 {
                group.addTask { for value in 0..<count / 2 { continuation.yield(value) } }
            }
        }
        continuation.finish()
    }
    var received = 0
    for await _ in stream { received += 1 }
    await producers.value
    blackHole(received)
}

// MARK: CombineLatest

private func combineLatestOfTwo(_ count: Int) async {
    var sum = 0
    for await (left, right) in CountingSequence(count: count / 2).combineLatest(CountingSequence(count: count / 2)) {
        sum &+= left &+ right
    }
    blackHole(sum)
}

/// Baseline: two tasks yield tagged values into one `AsyncStream`; the consumer keeps the
/// latest of each and forms the pair itself.
private func combineLatestThroughOneStream(_ count: Int) async {
    let (stream, continuation) = AsyncStream<(side: Int, value: Int)>.makeStream()
    let producers = Task {
        await withTaskGroup(of: Void.self) { group in
            for side in 0..<2 {
                group.addTask { for value in 0..<count / 2 { continuation.yield((side, value)) } }
            }
        }
        continuation.finish()
    }
    var latest: [Int?] = [nil, nil]
    var sum = 0
    for await (side, value) in stream {
        latest[side] = value
        if let left = latest[0], let right = latest[1] { sum &+= left &+ right }
    }
    await producers.value
    blackHole(sum)
}

// MARK: RemoveDuplicates

/// Runs of four equal values.
private func removeDuplicates(_ count: Int) async {
    var received = 0
    for await _ in CountingSequence(count: count, divisor: 4).removeDuplicates() { received += 1 }
    blackHole(received)
}

/// Baseline: a task yields the values into an `AsyncStream`; the consumer drops repeats.
private func removeDuplicatesAfterAStream(_ count: Int) async {
    let (stream, continuation) = AsyncStream<Int>.makeStream()
    let producer = Task {
        for value in 0..<count { continuation.yield(value / 4) }
        continuation.finish()
    }
    var last: Int?
    var received = 0
    for await value in stream where value != last {
        last = value
        received += 1
    }
    await producer.value
    blackHole(received)
}

// MARK: Debounce

/// A burst of `count` elements debounced by 1 ms; the burst ends with the source, which
/// delivers the last element.
private func debounceBurst(_ count: Int) async {
    var last = -1
    for await value in CountingSequence(count: count).debounce(for: .milliseconds(1)) { last = value }
    blackHole(last)
}

/// Baseline: a hand-written debounce on `AsyncStream` that starts a sleeping task per element
/// and cancels the previous one, the usual way to debounce without an operator.
private func debounceBurstWithTaskPerElement(_ count: Int) async {
    let (stream, continuation) = AsyncStream<Int>.makeStream()
    let debouncer = Task {
        var pending: Task<Void, Never>?
        var last: Int?
        for await value in CountingSequence(count: count) {
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
    var last = -1
    for await value in stream { last = value }
    await debouncer.value
    blackHole(last)
}

// MARK: Support

/// `0..<count` (each divided by `divisor`) as an asynchronous sequence that never suspends.
struct CountingSequence: AsyncSequence, Sendable {
    typealias Failure = Never

    let count: Int
    var divisor = 1

    func makeAsyncIterator() -> Iterator {
        Iterator(count: count, divisor: divisor)
    }

    struct Iterator: AsyncIteratorProtocol {
        let count: Int
        let divisor: Int
        var next = 0

        mutating func next() async -> Int? {
            guard next < count else { return nil }
            defer { next += 1 }
            return next / divisor
        }

        mutating func next(isolation actor: isolated (any Actor)?) async -> Int? {
            guard next < count else { return nil }
            defer { next += 1 }
            return next / divisor
        }
    }
}

/// Keeps a result alive so the optimizer cannot drop the work that made it.
@inline(never)
func blackHole(_ value: Int) {
    if value == .min { print(value) }
}
