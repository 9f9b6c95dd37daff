import Synchronization

/// `count` numbers (`start`, `start + step`, …) as an asynchronous sequence that never suspends
/// and counts how often it was pulled, then fails with `failure` (when given) instead of finishing: the hardest input for
/// an operator that must not read ahead without bound.
struct PullCountingSequence<Failure: Error>: AsyncSequence, Sendable {
    let count: Int
    let start: Int
    let step: Int
    let failure: Failure?
    /// `next` calls made on every iterator so far.
    let pulls = PullCounter()

    init(count: Int, from start: Int = 0, step: Int = 1, thenFailing failure: Failure? = nil) {
        self.count = count
        self.start = start
        self.step = step
        self.failure = failure
    }

    func makeAsyncIterator() -> Iterator {
        Iterator(sequence: self)
    }

    struct Iterator: AsyncIteratorProtocol {
        let sequence: PullCountingSequence
        var position = 0

        mutating func next() async throws(Failure) -> Int? {
            try step()
        }

        mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Int? {
            try step()
        }

        private mutating func step() throws(Failure) -> Int? {
            sequence.pulls.add()
            guard position < sequence.count else {
                if let failure = sequence.failure { throw failure }
                return nil
            }
            defer { position += 1 }
            return sequence.start + position * sequence.step
        }
    }
}

extension PullCountingSequence where Failure == Never {
    init(count: Int, from start: Int = 0, step: Int = 1) {
        self.init(count: count, from: start, step: step, thenFailing: nil)
    }
}

/// A count shared between tasks: the pulls of one ``PullCountingSequence``, or whatever a test counts.
final class PullCounter: Sendable {
    private let value = Atomic<Int>(0)

    func add() {
        value.add(1, ordering: .relaxed)
    }

    var count: Int { value.load(ordering: .relaxed) }
}
