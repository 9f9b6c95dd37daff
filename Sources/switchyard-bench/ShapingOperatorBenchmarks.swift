import Switchyard
import SwitchyardStreams

/// The `operator` cases of the operators issue 34 added or reworked (zip, share and the
/// shaping operators). Each runs over a source that never suspends, against the same result
/// computed by hand in the consuming loop (for the operators that run in the consumer's `next`)
/// or through `AsyncStream`s and tasks (for those that own a task), in the same run. The
/// consumers fold the values with ``mix(_:_:)`` and the count passes through ``opaque(_:)``,
/// so the optimizer cannot compute a loop that runs in the consumer's `next` at compile time.
func shapingOperatorBenchmarks(count: Int) -> [BenchmarkCase] {
    [
        operatorCase("zip", count, measure: zipOfTwo, baseline: zipThroughStreams),
        operatorCase("share", count, measure: shareToTwo, baseline: fanOutThroughStreams),
        operatorCase("collect-count", count, measure: collectByCount, baseline: collectByHand),
        operatorCase("collect-count-or-time", count, measure: collectByCountOrTime, baseline: collectByHand),
        operatorCase("buffer", count, measure: buffered, baseline: bufferedThroughAStream),
        operatorCase("delay", count, measure: delayedByZero, baseline: bufferedThroughAStream),
        operatorCase("prepend-append", count, measure: prependAppend, baseline: sumByHand),
        operatorCase("replace-empty", count, measure: replaceEmpty, baseline: sumByHand),
        operatorCase("ignore-output", count, measure: ignoreOutput, baseline: sumByHand),
        operatorCase("adjacent-pairs", count, measure: adjacentPairs, baseline: adjacentPairsByHand),
        operatorCase("interspersed", count, measure: interspersed, baseline: interspersedByHand),
        operatorCase("last", count, measure: lastElement, baseline: lastByHand),
    ]
}

private func operatorCase(
    _ name: String,
    _ count: Int,
    measure: @escaping @Sendable (Int) async -> Void,
    baseline: @escaping @Sendable (Int) async -> Void
) -> BenchmarkCase {
    BenchmarkCase(
        name: "operator.\(name)",
        unit: "elements/s",
        measure: { await throughput(count: count) { await measure(count) } },
        baseline: { await throughput(count: count) { await baseline(count) } }
    )
}

// MARK: Zip and share

private func zipOfTwo(_ count: Int) async {
    var sum = 0
    for await (left, right) in CountingSequence(count: opaque(count / 2)).zip(CountingSequence(count: opaque(count / 2))) { sum = mix(sum, left &+ right) }
    blackHole(sum)
}

/// Baseline: two tasks yield into an `AsyncStream` each; the consumer pairs them.
private func zipThroughStreams(_ count: Int) async {
    let (left, leftFeed) = AsyncStream<Int>.makeStream()
    let (right, rightFeed) = AsyncStream<Int>.makeStream()
    let producers = Task {
        await withTaskGroup(of: Void.self) { group in
            for feed in [leftFeed, rightFeed] {
                group.addTask {
                    for await value in CountingSequence(count: opaque(count / 2)) { feed.yield(value) }
                    feed.finish()
                }
            }
        }
    }
    var leftValues = left.makeAsyncIterator()
    var rightValues = right.makeAsyncIterator()
    var sum = 0
    while let a = await leftValues.next(), let b = await rightValues.next() { sum = mix(sum, a &+ b) }
    await producers.value
    blackHole(sum)
}

/// Two consumers of one shared source, `count / 2` elements each.
private func shareToTwo(_ count: Int) async {
    let shared = CountingSequence(count: opaque(count / 2)).share()
    // Both subscribe before either reads, so each gets every element.
    let first = shared.makeAsyncIterator()
    let second = shared.makeAsyncIterator()
    async let firstSum = sum(first)
    async let secondSum = sum(second)
    blackHole(await firstSum &+ secondSum)
}

private func sum<Iterator: AsyncIteratorProtocol<Int, Never>>(_ iterator: sending Iterator) async -> Int {
    var iterator = iterator
    var sum = 0
    while let value = await iterator.next(isolation: nil) { sum = mix(sum, value) }
    return sum
}

/// Baseline: a task reads the source and yields each element into two `AsyncStream`s.
private func fanOutThroughStreams(_ count: Int) async {
    let streams = (0..<2).map { _ in AsyncStream<Int>.makeStream() }
    let continuations = streams.map(\.continuation)
    await withTaskGroup(of: Int.self) { group in
        group.addTask {
            for await value in CountingSequence(count: opaque(count / 2)) {
                for continuation in continuations { continuation.yield(value) }
            }
            for continuation in continuations { continuation.finish() }
            return 0
        }
        for (stream, _) in streams {
            group.addTask {
                var sum = 0
                for await value in stream { sum = mix(sum, value) }
                return sum
            }
        }
        for await sum in group { blackHole(sum) }
    }
}

// MARK: Collect, buffer, delay

private func collectByCount(_ count: Int) async {
    var sum = 0
    for await batch in CountingSequence(count: opaque(count)).collect(count: 16) { sum = mix(sum, batch.count) }
    blackHole(sum)
}

/// `collect(count:orEvery:)` with windows far longer than the run: arrays by count.
private func collectByCountOrTime(_ count: Int) async {
    var sum = 0
    for await batch in CountingSequence(count: opaque(count)).collect(count: 16, orEvery: .seconds(60)) { sum = mix(sum, batch.count) }
    blackHole(sum)
}

/// Baseline: the consumer gathers arrays of 16 itself.
private func collectByHand(_ count: Int) async {
    var batch: [Int] = []
    var sum = 0
    for await value in CountingSequence(count: opaque(count)) {
        batch.append(value)
        if batch.count == 16 {
            sum = mix(sum, batch.count)
            batch = []
        }
    }
    blackHole(sum &+ batch.count)
}

private func buffered(_ count: Int) async {
    var sum = 0
    for await value in CountingSequence(count: opaque(count)).buffer(size: 64) { sum = mix(sum, value) }
    blackHole(sum)
}

/// `delay(for: .zero)`: the cost of the operator's reader and timer tasks alone.
private func delayedByZero(_ count: Int) async {
    var sum = 0
    for await value in CountingSequence(count: opaque(count)).delay(for: .zero) { sum = mix(sum, value) }
    blackHole(sum)
}

/// Baseline: a task reads the source into a bounded `AsyncStream` the consumer reads.
private func bufferedThroughAStream(_ count: Int) async {
    let (stream, continuation) = AsyncStream<Int>.makeStream()
    let producer = Task {
        for await value in CountingSequence(count: opaque(count)) { continuation.yield(value) }
        continuation.finish()
    }
    var sum = 0
    for await value in stream { sum = mix(sum, value) }
    await producer.value
    blackHole(sum)
}

// MARK: Operators in the consumer's next

private func prependAppend(_ count: Int) async {
    var sum = 0
    for await value in CountingSequence(count: opaque(count - 2)).prepend(-1).append(-2) { sum = mix(sum, value) }
    blackHole(sum)
}

private func replaceEmpty(_ count: Int) async {
    var sum = 0
    for await value in CountingSequence(count: opaque(count)).replaceEmpty(with: -1) { sum = mix(sum, value) }
    blackHole(sum)
}

private func ignoreOutput(_ count: Int) async {
    for await _ in CountingSequence(count: opaque(count)).ignoreOutput() {}
    blackHole(count)
}

/// Baseline: the plain source, summed.
private func sumByHand(_ count: Int) async {
    var sum = 0
    for await value in CountingSequence(count: opaque(count)) { sum = mix(sum, value) }
    blackHole(sum)
}

private func adjacentPairs(_ count: Int) async {
    var sum = 0
    for await (before, after) in CountingSequence(count: opaque(count)).adjacentPairs() { sum = mix(sum, after &- before) }
    blackHole(sum)
}

/// Baseline: the consumer keeps the previous element itself.
private func adjacentPairsByHand(_ count: Int) async {
    var previous: Int?
    var sum = 0
    for await value in CountingSequence(count: opaque(count)) {
        if let previous { sum = mix(sum, value) &- previous }
        previous = value
    }
    blackHole(sum)
}

private func interspersed(_ count: Int) async {
    var sum = 0
    for await value in CountingSequence(count: opaque(count / 2)).interspersed(with: -1) { sum = mix(sum, value) }
    blackHole(sum)
}

/// Baseline: the consumer adds the separators itself.
private func interspersedByHand(_ count: Int) async {
    var sum = 0
    var first = true
    for await value in CountingSequence(count: opaque(count / 2)) {
        if !first { sum = mix(sum, -1) }
        first = false
        sum = mix(sum, value)
    }
    blackHole(sum)
}

private func lastElement(_ count: Int) async {
    blackHole(await CountingSequence(count: opaque(count)).last { $0 % 3 == 0 } ?? 0)
}

/// Baseline: the consumer keeps the last match itself.
private func lastByHand(_ count: Int) async {
    var last = 0
    for await value in CountingSequence(count: opaque(count)) where value % 3 == 0 { last = value }
    blackHole(last)
}

// MARK: Support

/// `value` unchanged, through a call the optimizer cannot see into.
@inline(never)
func opaque(_ value: Int) -> Int {
    value
}

/// Folds `value` into `sum` in a way no closed form computes.
@inline(__always)
func mix(_ sum: Int, _ value: Int) -> Int {
    sum &* 31 &+ value
}
