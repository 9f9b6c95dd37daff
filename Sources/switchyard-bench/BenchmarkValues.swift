/// The elements an `operator` case reads, as an asynchronous sequence that never suspends.
///
/// The values come from an array made at run time (``benchmarkValues(count:runLength:)``), so
/// the optimizer knows neither them nor their number and cannot compute a case's loop at
/// compile time. A case whose consumer does not see every element (`ignoreOutput`, `last`)
/// gives the sequence a ``Tally`` that takes each element as it is read.
struct BenchmarkValues: AsyncSequence, Sendable {
    typealias Failure = Never

    let values: [Int]
    var tap: Tally?

    init(_ values: [Int], tap: Tally? = nil) {
        self.values = values
        self.tap = tap
    }

    /// The values from `range`'s positions (for the cases whose inputs split the elements).
    init(_ values: [Int], _ range: Range<Int>) {
        self.init(Array(values[range]))
    }

    func makeAsyncIterator() -> Iterator {
        Iterator(values: values, tap: tap)
    }

    struct Iterator: AsyncIteratorProtocol {
        let values: [Int]
        let tap: Tally?
        var index = 0

        mutating func next() async -> Int? {
            nextValue()
        }

        mutating func next(isolation actor: isolated (any Actor)?) async -> Int? {
            nextValue()
        }

        private mutating func nextValue() -> Int? {
            guard index < values.count else { return nil }
            let value = values[index]
            index += 1
            tap?.take(value)
            return value
        }
    }
}

/// `count` values made at run time, in runs of `runLength` equal ones: they depend on the
/// number of command-line arguments, which the optimizer cannot know.
func benchmarkValues(count: Int, runLength: Int = 1) -> [Int] {
    let seed = CommandLine.arguments.count
    return (0..<count).map { ($0 / runLength) &* 2_654_435_761 &+ seed }
}

/// Takes every element a case produces through a call the optimizer cannot see into, so it can
/// neither drop the loop that produces them nor fold it into a closed form; the folded
/// ``total`` is kept alive with ``blackHole(_:)``.
///
/// One consumer uses a tally at a time (a case with two consumers gives each its own), so the
/// unchecked `Sendable` only lets the tally travel with the sequence it taps.
final class Tally: @unchecked Sendable {
    private(set) var total = 0

    @inline(never)
    func take(_ value: Int) {
        total = total &* 31 &+ value
    }

    /// Keeps the total alive; call once the case's loop ended.
    func finish() {
        blackHole(total)
    }
}

/// Keeps a result alive so the optimizer cannot drop the work that made it.
@inline(never)
func blackHole(_ value: Int) {
    if value == .min { print(value) }
}
