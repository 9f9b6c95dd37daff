/// What an operator's state machine decides when one of its inputs ended.
@usableFromInline enum OperatorEndAction: Equatable, Sendable {
    /// Other inputs still run (or the operator has ended already); keep going.
    case none
    /// Finish the output after what it holds.
    case finish
    /// Fail the output with the input's failure, which cancels the other inputs.
    case fail
}

extension OperatorDriver {
    /// Starts an owned task that waits for the consumer's first `next`, then runs `body`;
    /// nothing runs when the operator stops before that.
    @inlinable func spawnAfterStart(_ body: sending @escaping () async -> Void) {
        spawn {
            guard await self.waitForStart() else { return }
            await body()
        }
    }

    /// Subscribes to `base` now (makes its iterator), so nothing sent from here on is missed,
    /// and reads it from the consumer's first `next` on, in an owned task, with `body`.
    @inlinable func read<Base: AsyncSequence & Sendable>(
        _ base: Base,
        with body: sending @escaping (inout Base.AsyncIterator) async -> Void
    ) {
        let iterator = base.makeAsyncIterator()
        spawnAfterStart {
            var iterator = iterator
            await body(&iterator)
        }
    }

    /// Tells the machine how an input ended (`decide` gets whether it failed) and ends the
    /// output as it decides, failing it with the input's failure.
    @inlinable func inputEnded(
        _ end: Result<Void, Failure>,
        _ decide: @Sendable (inout Machine, _ failed: Bool) -> OperatorEndAction
    ) {
        update { machine, output in
            switch end {
            case .success:
                if decide(&machine, false) == .finish { output.finish() }
            case .failure(let failure):
                if decide(&machine, true) == .fail { output.fail(failure) }
            }
        }
    }
}
