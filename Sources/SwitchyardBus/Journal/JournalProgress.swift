import Synchronization

/// How far long journal work has got, and the way to interrupt it.
///
/// Reading (restore, `verify`, `export`, `show`) writes nothing, so an interrupt may end the
/// process at once. Writing (an import's appends) must end on a whole, flushed batch, so there
/// an interrupt is taken at the next batch boundary. ``interrupt()`` tells the caller which of
/// the two applies; the work marks its writing with ``beginWriting()``.
public final class JournalProgress: Sendable, Hashable {
    /// What the work is doing and how far it is, in bytes read or actions written.
    public struct Report: Sendable, Hashable {
        /// `restoring`, `verifying`, `reading` or `importing`.
        public var phase: String
        /// Bytes (``isBytes``) or actions done so far, out of ``total``.
        public var done: Int
        /// All the bytes or actions the work has to do.
        public var total: Int
        /// Whether ``done`` and ``total`` count bytes (reading) rather than actions (writing).
        public var isBytes: Bool
    }

    /// What an interrupt means for the work under way.
    public enum Interruption: Sendable {
        /// Nothing is being written: the process may end at once.
        case endNow
        /// A write is under way: the work stops at its next whole, flushed batch.
        case stopAtBatch
    }

    private enum Stage: UInt8 {
        case reading, writing, interruptedWhileWriting, interruptedBeforeWriting
    }

    private let stage = Atomic<UInt8>(Stage.reading.rawValue)
    private let reporter: @Sendable (Report) -> Void

    /// Progress that `report` hears about (on the working thread, a few times per second of
    /// work or less); by default nobody does.
    public init(report: @escaping @Sendable (Report) -> Void = { _ in }) {
        reporter = report
    }

    /// Asks the work to stop, from any thread (a signal handler's).
    /// - Returns: ``Interruption/endNow`` before writing began, ``Interruption/stopAtBatch`` once it has.
    public func interrupt() -> Interruption {
        var current = stage.load(ordering: .sequentiallyConsistent)
        while true {
            // A loop, not a load then a store: beginWriting may win in between, and then the
            // write must be let finish its batch.
            let writing = current == Stage.writing.rawValue || current == Stage.interruptedWhileWriting.rawValue
            let desired = writing ? Stage.interruptedWhileWriting : Stage.interruptedBeforeWriting
            let (exchanged, original) = stage.compareExchange(expected: current, desired: desired.rawValue, ordering: .sequentiallyConsistent)
            if exchanged { return writing ? .stopAtBatch : .endNow }
            current = original
        }
    }

    /// Whether an interrupt asked writing to stop.
    public var isInterrupted: Bool {
        let current = stage.load(ordering: .sequentiallyConsistent)
        return current == Stage.interruptedWhileWriting.rawValue || current == Stage.interruptedBeforeWriting.rawValue
    }

    /// Marks the start of writing: from now on an interrupt waits for a whole batch.
    /// - Returns: `false` when an interrupt came first (then nothing may be written).
    public func beginWriting() -> Bool {
        stage.compareExchange(expected: Stage.reading.rawValue, desired: Stage.writing.rawValue, ordering: .sequentiallyConsistent).exchanged
    }

    /// Progress objects are equal when they are the same object.
    public static func == (left: JournalProgress, right: JournalProgress) -> Bool { left === right }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }

    /// Hands `done` of `total` to the reporter.
    func report(_ phase: String, done: Int, total: Int, bytes: Bool) {
        reporter(Report(phase: phase, done: done, total: total, isBytes: bytes))
    }
}
