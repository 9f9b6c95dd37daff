import SwitchyardBus
import SwitchyardStreams

/// The `operator` cases of the operators issue 34 added or reworked (zip, share and the
/// shaping operators). Each runs over a source that never suspends, against the same result
/// computed by hand in the consuming loop (for the operators that run in the consumer's `next`)
/// or through `AsyncStream`s and tasks (for those that own a task), in the same run.
func shapingOperatorBenchmarks(_ values: [Int]) -> [BenchmarkCase] {
    [
        operatorCase("zip", values, measure: zipOfTwo, baseline: zipThroughStreams),
        operatorCase("share", values, measure: shareToTwo, baseline: fanOutThroughStreams),
        operatorCase("collect-count", values, measure: collectByCount, baseline: collectByHand),
        operatorCase("collect-count-or-time", values, measure: collectByCountOrTime, baseline: collectByHand),
        operatorCase("buffer", values, measure: buffered, baseline: bufferedThroughAStream),
        operatorCase("delay", values, measure: delayedByZero, baseline: bufferedThroughAStream),
        operatorCase("prepend-append", values, measure: prependAppend, baseline: takenByHand),
        operatorCase("replace-empty", values, measure: replaceEmpty, baseline: takenByHand),
        operatorCase("ignore-output", values, measure: ignoreOutput, baseline: readByHand),
        operatorCase("adjacent-pairs", values, measure: adjacentPairs, baseline: adjacentPairsByHand),
        operatorCase("interspersed", values, measure: interspersed, baseline: interspersedByHand),
        operatorCase("last", values, measure: lastElement, baseline: lastByHand),
        operatorCase("timer", values, measure: timerTicks, baseline: ticksByHand),
    ]
}

// MARK: Zip and share

private func zipOfTwo(_ values: [Int]) async {
    let (first, second) = halves(values)
    await takeSums(of: first.zip(second))
}

/// Baseline: two tasks yield into an `AsyncStream` each; the consumer pairs them.
private func zipThroughStreams(_ values: [Int]) async {
    let (left, leftFeed) = AsyncStream<Int>.makeStream()
    let (right, rightFeed) = AsyncStream<Int>.makeStream()
    let (first, second) = halves(values)
    let producers = Task {
        await withTaskGroup(of: Void.self) { group in
            for (input, feed) in [(first, leftFeed), (second, rightFeed)] {
                group.addTask {
                    for await value in input { feed.yield(value) }
                    feed.finish()
                }
            }
        }
    }
    var leftValues = left.makeAsyncIterator()
    var rightValues = right.makeAsyncIterator()
    let tally = Tally()
    while let a = await leftValues.next(), let b = await rightValues.next() { tally.take(a &+ b) }
    await producers.value
    tally.finish()
}

/// Two consumers of one shared source of half the values each.
private func shareToTwo(_ values: [Int]) async {
    let shared = halves(values).0.share()
    // Both subscribe before either reads, so each gets every element.
    let first = shared.makeAsyncIterator()
    let second = shared.makeAsyncIterator()
    async let firstTaken: Void = takeAll(first)
    async let secondTaken: Void = takeAll(second)
    _ = await (firstTaken, secondTaken)
}

private func takeAll<Iterator: AsyncIteratorProtocol<Int, Never>>(_ iterator: sending Iterator) async {
    var iterator = iterator
    let tally = Tally()
    while let value = await iterator.next(isolation: nil) { tally.take(value) }
    tally.finish()
}

/// Baseline: a task reads the source and yields each element into two `AsyncStream`s.
private func fanOutThroughStreams(_ values: [Int]) async {
    let streams = (0..<2).map { _ in AsyncStream<Int>.makeStream() }
    let continuations = streams.map(\.continuation)
    let source = halves(values).0
    await withTaskGroup(of: Void.self) { group in
        group.addTask {
            for await value in source {
                for continuation in continuations { continuation.yield(value) }
            }
            for continuation in continuations { continuation.finish() }
        }
        for (stream, _) in streams {
            group.addTask {
                let tally = Tally()
                for await value in stream { tally.take(value) }
                tally.finish()
            }
        }
    }
}

// MARK: Collect, buffer, delay

private func collectByCount(_ values: [Int]) async {
    let tally = Tally()
    for await batch in BenchmarkValues(values).collect(count: 16) { takeEach(batch, tally) }
    tally.finish()
}

/// `collect(count:orEvery:)` with windows far longer than the run: arrays by count.
private func collectByCountOrTime(_ values: [Int]) async {
    let tally = Tally()
    for await batch in BenchmarkValues(values).collect(count: 16, orEvery: .seconds(60)) { takeEach(batch, tally) }
    tally.finish()
}

/// Baseline: the consumer gathers arrays of 16 itself.
private func collectByHand(_ values: [Int]) async {
    var batch: [Int] = []
    let tally = Tally()
    for await value in BenchmarkValues(values) {
        batch.append(value)
        if batch.count == 16 {
            takeEach(batch, tally)
            batch = []
        }
    }
    takeEach(batch, tally)
    tally.finish()
}

private func takeEach(_ batch: [Int], _ tally: Tally) {
    for value in batch { tally.take(value) }
}

private func buffered(_ values: [Int]) async {
    let tally = Tally()
    for await value in BenchmarkValues(values).buffer(size: 64) { tally.take(value) }
    tally.finish()
}

/// `delay(for: .zero)`: the cost of the operator's reader and timer tasks alone.
private func delayedByZero(_ values: [Int]) async {
    let tally = Tally()
    for await value in BenchmarkValues(values).delay(for: .zero) { tally.take(value) }
    tally.finish()
}

/// Baseline: a task reads the source into an `AsyncStream` the consumer reads.
private func bufferedThroughAStream(_ values: [Int]) async {
    let (stream, continuation) = AsyncStream<Int>.makeStream()
    let producer = Task {
        for await value in BenchmarkValues(values) { continuation.yield(value) }
        continuation.finish()
    }
    let tally = Tally()
    for await value in stream { tally.take(value) }
    await producer.value
    tally.finish()
}
