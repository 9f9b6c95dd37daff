import Switchyard
import SwitchyardStreams

/// The `operator` cases of the operators issue 34 added or reworked (zip, share and the
/// shaping operators). Each runs over a source that never suspends, against the same result
/// computed by hand in the consuming loop (for the operators that run in the consumer's `next`)
/// or through `AsyncStream`s and tasks (for those that own a task), in the same run.
func shapingOperatorBenchmarks(count: Int) -> [BenchmarkCase] {
    [
        operatorCase("zip", count, measure: zipOfTwo, baseline: zipByHand),
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
    for await (left, right) in CountingSequence(count: count / 2).zip(CountingSequence(count: count / 2)) { sum &+= left &+ right }
    blackHole(sum)
}

/// Baseline: the consumer advances both iterators itself.
private func zipByHand(_ count: Int) async {
    var left = CountingSequence(count: count / 2).makeAsyncIterator()
    var right = CountingSequence(count: count / 2).makeAsyncIterator()
    var sum = 0
    while let a = await left.next(), let b = await right.next() { sum &+= a &+ b }
    blackHole(sum)
}

/// Two consumers of one shared source, `count / 2` elements each.
private func shareToTwo(_ count: Int) async {
    let shared = CountingSequence(count: count / 2).share()
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
    while let value = await iterator.next(isolation: nil) { sum &+= value }
    return sum
}

/// Baseline: a task reads the source and yields each element into two `AsyncStream`s.
private func fanOutThroughStreams(_ count: Int) async {
    let streams = (0..<2).map { _ in AsyncStream<Int>.makeStream() }
    let continuations = streams.map(\.continuation)
    await withTaskGroup(of: Int.self) { group in
        group.addTask {
            for await value in CountingSequence(count: count / 2) {
                for continuation in continuations { continuation.yield(value) }
            }
            for continuation in continuations { continuation.finish() }
            return 0
        }
        for (stream, _) in streams {
            group.addTask {
                var sum = 0
                for await value in stream { sum &+= value }
                return sum
            }
        }
        for await sum in group { blackHole(sum) }
    }
}

// MARK: Collect, buffer, delay

private func collectByCount(_ count: Int) async {
    var sum = 0
    for await batch in CountingSequence(count: count).collect(count: 16) { sum &+= batch.count }
    blackHole(sum)
}

/// `collect(count:orEvery:)` with windows far longer than the run: arrays by count.
private func collectByCountOrTime(_ count: Int) async {
    var sum = 0
    for await batch in CountingSequence(count: count).collect(count: 16, orEvery: .seconds(60)) { sum &+= batch.count }
    blackHole(sum)
}

/// Baseline: the consumer gathers arrays of 16 itself.
private func collectByHand(_ count: Int) async {
    var batch: [Int] = []
    var sum = 0
    for await value in CountingSequence(count: count) {
        batch.append(value)
        if batch.count == 16 {
            sum &+= batch.count
            batch = []
        }
    }
    blackHole(sum &+ batch.count)
}

private func buffered(_ count: Int) async {
    var sum = 0
    for await value in CountingSequence(count: count).buffer(size: 64) { sum &+= value }
    blackHole(sum)
}

/// `delay(for: .zero)`: the cost of the operator's reader and timer tasks alone.
private func delayedByZero(_ count: Int) async {
    var sum = 0
    for await value in CountingSequence(count: count).delay(for: .zero) { sum &+= value }
    blackHole(sum)
}

/// Baseline: a task reads the source into a bounded `AsyncStream` the consumer reads.
private func bufferedThroughAStream(_ count: Int) async {
    let (stream, continuation) = AsyncStream<Int>.makeStream()
    let producer = Task {
        for await value in CountingSequence(count: count) { continuation.yield(value) }
        continuation.finish()
    }
    var sum = 0
    for await value in stream { sum &+= value }
    await producer.value
    blackHole(sum)
}

// MARK: Operators in the consumer's next

private func prependAppend(_ count: Int) async {
    var sum = 0
    for await value in CountingSequence(count: count - 2).prepend(-1).append(-2) { sum &+= value }
    blackHole(sum)
}

private func replaceEmpty(_ count: Int) async {
    var sum = 0
    for await value in CountingSequence(count: count).replaceEmpty(with: -1) { sum &+= value }
    blackHole(sum)
}

private func ignoreOutput(_ count: Int) async {
    for await _ in CountingSequence(count: count).ignoreOutput() {}
    blackHole(count)
}

/// Baseline: the plain source, summed.
private func sumByHand(_ count: Int) async {
    var sum = 0
    for await value in CountingSequence(count: count) { sum &+= value }
    blackHole(sum)
}

private func adjacentPairs(_ count: Int) async {
    var sum = 0
    for await (before, after) in CountingSequence(count: count).adjacentPairs() { sum &+= after &- before }
    blackHole(sum)
}

/// Baseline: the consumer keeps the previous element itself.
private func adjacentPairsByHand(_ count: Int) async {
    var previous: Int?
    var sum = 0
    for await value in CountingSequence(count: count) {
        if let previous { sum &+= value &- previous }
        previous = value
    }
    blackHole(sum)
}

private func interspersed(_ count: Int) async {
    var sum = 0
    for await value in CountingSequence(count: count / 2).interspersed(with: -1) { sum &+= value }
    blackHole(sum)
}

/// Baseline: the consumer adds the separators itself.
private func interspersedByHand(_ count: Int) async {
    var sum = 0
    var first = true
    for await value in CountingSequence(count: count / 2) {
        if !first { sum &+= -1 }
        first = false
        sum &+= value
    }
    blackHole(sum)
}
