/// What an `exec` plugin does with an action for its child when the child's input queue is
/// full because the child reads more slowly than actions arrive.
public enum InputOverflowPolicy: String, Sendable, Hashable, CaseIterable {
    /// The oldest queued line is discarded to make room: the child sees the latest actions.
    case dropOldest = "drop-oldest"
    /// The arriving line is discarded: the child sees an unbroken prefix.
    case dropNewest = "drop-newest"
}

/// What happened to the lines meant for a child.
public struct InputCounters: Sendable, Hashable, CustomStringConvertible {
    /// Lines written to the child's stdin in full.
    public var written = 0
    /// Lines discarded by the overflow policy because the queue was full.
    public var dropped = 0
    /// Lines still queued or half written when the child's stdin closed (the child stopped
    /// reading it, exited, or is being stopped).
    public var discarded = 0

    /// `written 10, dropped 2, discarded 0`.
    public var description: String {
        "written \(written), dropped \(dropped), discarded \(discarded)"
    }
}

/// The bounded queue of lines waiting to be written to a child's stdin.
///
/// The bus side pushes without ever waiting; the writer takes batches. Drops come in
/// episodes: an episode starts with the first drop and ends when the child has caught up (a
/// batch written in full with nothing queued behind it), so a caller can report each
/// episode once instead of once per dropped line.
struct InputQueue: Sendable {
    /// What ``push(_:)`` did.
    enum PushResult: Sendable, Hashable {
        /// The line was queued and nothing dropped.
        case queued
        /// The queue was full and a line was dropped (which one depends on the policy);
        /// `startsEpisode` is true for the first drop since the queue was last empty.
        case overflowed(startsEpisode: Bool)
        /// The child's stdin is closed; the line was discarded.
        case closed
    }

    /// The most lines held at once.
    let capacity: Int
    /// Which line a full queue drops.
    let overflow: InputOverflowPolicy
    /// What happened to the lines so far.
    private(set) var counters = InputCounters()
    /// Whether the child's stdin has closed; later pushes are discarded.
    private(set) var isClosed = false

    private var lines: RingBuffer<[UInt8]>
    private var isOverflowing = false

    /// Creates an empty, open queue.
    init(capacity: Int, overflow: InputOverflowPolicy) {
        precondition(capacity > 0, "an input queue needs room for a line")
        self.capacity = capacity
        self.overflow = overflow
        self.lines = RingBuffer(initialCapacity: min(capacity, 64))
    }

    /// The number of queued lines.
    var count: Int { lines.count }

    /// Queues `line` (its newline included), applying the overflow policy when full.
    mutating func push(_ line: [UInt8]) -> PushResult {
        guard !isClosed else {
            counters.discarded += 1
            return .closed
        }
        guard lines.count >= capacity else {
            lines.append(line)
            return .queued
        }
        counters.dropped += 1
        if overflow == .dropOldest {
            _ = lines.popFirst()
            lines.append(line)
        }
        let startsEpisode = !isOverflowing
        isOverflowing = true
        return .overflowed(startsEpisode: startsEpisode)
    }

    /// Removes queued lines, oldest first, joined into one buffer of about `maximumBytes`
    /// (at least one whole line); `nil` when nothing is queued.
    mutating func takeBatch(maximumBytes: Int) -> (bytes: [UInt8], lines: Int)? {
        guard var bytes = lines.popFirst() else { return nil }
        var taken = 1
        while let next = lines.first, bytes.count + next.count <= maximumBytes {
            bytes += next
            _ = lines.popFirst()
            taken += 1
        }
        return (bytes, taken)
    }

    /// Counts `count` lines of a taken batch as written in full; with nothing queued behind
    /// them, an overflow episode ends.
    mutating func recordWritten(lines count: Int) {
        counters.written += count
        if lines.isEmpty {
            isOverflowing = false
        }
    }

    /// Closes the queue: everything queued, plus `unwrittenLines` of a batch in progress, is
    /// discarded and counted.
    mutating func close(unwrittenLines: Int) {
        counters.discarded += lines.count + unwrittenLines
        lines.removeAll()
        isClosed = true
        isOverflowing = false
    }
}
