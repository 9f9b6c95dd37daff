/// How a base sequence ended, kept by an iterator that still has elements to hand out before
/// the end (`collect(count:)`, `replaceEmpty(with:)`): a failure is thrown once, then every
/// call ends quietly.
@usableFromInline struct BaseEnding<Failure: Error> {
    @usableFromInline var recorded: Result<Void, Failure>?
    @usableFromInline var isDue = false

    @inlinable init() {}

    /// Whether the base has ended.
    @inlinable var isEnded: Bool { recorded != nil }

    /// Keeps the end, to deliver at the next ``deliver()``.
    @inlinable mutating func record(_ end: Result<Void, Failure>) {
        recorded = end
        isDue = true
    }

    /// Throws a recorded failure once; does nothing otherwise.
    @inlinable mutating func deliver() throws(Failure) {
        guard isDue, let recorded else { return }
        isDue = false
        self.recorded = .success(())
        try recorded.get()
    }
}
