import Glibc

/// Follows a bus's journal from a sequence number on, for readers that publish what the bus
/// recorded (the NATS bridge's store-and-forward): each ``read(limit:)`` continues where the
/// last one stopped, reading only the bytes appended since, so following a journal costs
/// what it appends.
///
/// Reading is safe while the bus appends: bytes after the last newline are a line still
/// being written and are read on a later call. Every line's checksum is checked against the
/// segment's chain, as the bus does on start. Actions compaction removed before they were read
/// are not an error: ``Batch/missing`` names them, and reading continues after them. The
/// on-disk format is the writer's; nothing here writes.
public struct JournalFollower: Sendable {
    /// What one ``JournalFollower/read(limit:)`` (actions) or
    /// ``JournalFollower/readJournaled(limit:)`` (actions as journaled) found.
    public struct Found<Action: Sendable & Hashable>: Sendable, Hashable {
        /// The actions after the previous position, in order.
        public var actions: [Action] = []
        /// Journaled actions that are gone (removed by `journal compact`) before `actions`;
        /// `nil` when nothing was skipped.
        public var missing: ClosedRange<UInt64>?
        /// Whether the read reached the end of what is journaled now.
        public var reachedEnd = false
    }

    /// What one ``read(limit:)`` found.
    public typealias Batch = Found<BusAction>

    private let layout: JournalLayout
    /// The last sequence number handed over, or skipped as missing.
    public private(set) var position: UInt64
    private var segment: JournalLayout.Segment?
    private var offset = 0
    /// Bytes of the segment from ``offset`` on, read but not yet taken: a read takes what
    /// its limit allows and the next one continues in the same bytes, so the segment is read
    /// once whatever the limits.
    private var pending: [UInt8] = []
    private var pendingStart = 0
    private var chain: UInt32 = 0
    private var legacy = false
    /// Set when a read stopped before missing actions, to report them first in the next batch.
    private var stoppedAtGap = false

    /// The largest piece of a segment read at once: 1 MiB (a longer line is read in more).
    static let chunkSize = 1 << 20

    /// A follower of the journal in `dataDirectory` that hands over the actions after
    /// `position` (0: from the first action journaled).
    public init(dataDirectory: String, after position: UInt64) {
        layout = JournalLayout(dataDirectory: dataDirectory)
        self.position = position
    }

    /// Reads up to `limit` actions after ``position`` and moves past them.
    /// - Throws: ``JournalError`` when a segment cannot be read or a line is damaged (its
    ///   checksum, its JSON or its sequence number); the position stays before it.
    public mutating func read(limit: Int) throws(JournalError) -> Batch {
        try read(limit: limit, as: BusAction.self)
    }

    /// Reads up to `limit` actions after ``position`` as their lines hold them, without
    /// building their payloads, and moves past them: for readers that pass the payload on as
    /// JSON text. Throws as ``read(limit:)`` does.
    public mutating func readJournaled(limit: Int) throws(JournalError) -> Found<JournaledAction> {
        try read(limit: limit, as: JournaledAction.self)
    }

    private mutating func read<Action: JournalFollowerItem>(limit: Int, as: Action.Type) throws(JournalError) -> Found<Action> {
        var batch = Found<Action>()
        // Nothing can follow the largest sequence number (a position can come from outside:
        // an event stream's Last-Event-ID, a cursor file).
        guard position < .max else {
            batch.reachedEnd = true
            return batch
        }
        while batch.actions.count < limit {
            if segment == nil {
                let segments = try layout.list().segments
                guard let chosen = segments.last(where: { $0.firstSequence <= following }) ?? segments.first else {
                    batch.reachedEnd = true
                    return batch
                }
                enter(chosen)
            }
            guard try readSegment(limit: limit, into: &batch) else { continue }
            if batch.actions.count >= limit || stoppedAtGap { return batch.stopped(&stoppedAtGap) }
            // At the end of this segment: it is finished only when a newer one exists, and the
            // writer may have appended to it just before starting that one, so it is read once more.
            let segments = try layout.list().segments
            guard let current = segment, let next = segments.first(where: { $0.firstSequence > current.firstSequence }) else {
                batch.reachedEnd = true
                return batch
            }
            guard try readSegment(limit: limit, into: &batch) else { continue }
            if batch.actions.count >= limit || stoppedAtGap { return batch.stopped(&stoppedAtGap) }
            enter(next)
        }
        return batch
    }

    /// The sequence number after ``position``; the largest one stays itself, so a journal
    /// that reached it reads nothing more rather than overflowing.
    private var following: UInt64 { position == .max ? .max : position + 1 }

    /// Moves past the actions through `sequence` without handing them over (another reader
    /// took them); a position already past it stays.
    public mutating func advance(to sequence: UInt64) {
        position = max(position, sequence)
    }

    private mutating func enter(_ segment: JournalLayout.Segment) {
        self.segment = segment
        offset = 0
        chain = 0
        legacy = false
        pending = []
        pendingStart = 0
    }

    /// Reads the current segment from ``offset`` to its end or `limit`; `false` when the
    /// segment is gone (compacted away), so the caller lists the segments again.
    private mutating func readSegment<Action: JournalFollowerItem>(limit: Int, into batch: inout Found<Action>) throws(JournalError) -> Bool {
        guard let segment else { return false }
        // Whole lines already read come first, while the segment exists (compaction hands
        // nothing over from a removed one); the file is opened only for more.
        if pendingStart < pending.count, access(segment.path, F_OK) != 0, errno == ENOENT {
            self.segment = nil
            pending = []
            pendingStart = 0
            return false
        }
        try takePending(segment: segment, limit: limit, into: &batch)
        guard batch.actions.count < limit, !stoppedAtGap else { return true }
        let descriptor = open(segment.path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard descriptor >= 0 else {
            if errno == ENOENT {
                self.segment = nil
                pending = []
                pendingStart = 0
                return false
            }
            throw .system(path: segment.path, operation: "open", errno: errno)
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .system(path: segment.path, operation: "inspect", errno: errno) }
        guard status.st_mode & S_IFMT == S_IFREG else { throw .system(path: segment.path, operation: "read", reason: "it is not a regular file") }
        while batch.actions.count < limit, !stoppedAtGap {
            // The pending bytes hold no whole line here: append the next chunk after them.
            let readFrom = offset + pending.count - pendingStart
            let wanted = min(Int(status.st_size) - readFrom, Self.chunkSize)
            guard wanted > 0 else { break }
            let count = readMore(wanted, from: descriptor, at: readFrom)
            if count < 0 {
                if errno == EINTR { continue }
                throw .system(path: segment.path, operation: "read", errno: errno)
            }
            guard count > 0 else { break }
            try takePending(segment: segment, limit: limit, into: &batch)
        }
        return true
    }

    /// Reads up to `count` bytes of `descriptor` from `position` after the pending bytes not
    /// yet taken (the start of a line), into a buffer of their own made without zeroing;
    /// the number read, or -1 with `errno` set.
    private mutating func readMore(_ count: Int, from descriptor: Int32, at position: Int) -> Int {
        let kept = pending[pendingStart...]
        var result = 0
        var failure: Int32 = 0
        pending = [UInt8](unsafeUninitializedCapacity: kept.count + count) { buffer, initialized in
            guard let base = buffer.baseAddress else { return }
            kept.withUnsafeBufferPointer { if let start = $0.baseAddress { base.initialize(from: start, count: $0.count) } }
            result = pread(descriptor, base + kept.count, count, off_t(position))
            if result < 0 { failure = errno }
            initialized = kept.count + max(result, 0)
        }
        pendingStart = 0
        if result < 0 { errno = failure }
        return result
    }

    /// Takes the whole lines of the pending bytes, up to `limit` actions, and moves past them.
    private mutating func takePending<Action: JournalFollowerItem>(segment: JournalLayout.Segment, limit: Int, into batch: inout Found<Action>) throws(JournalError) {
        guard pendingStart < pending.count else { return }
        let consumed = try scan(pending[pendingStart...], segment: segment, limit: limit, into: &batch)
        offset += consumed
        pendingStart += consumed
        if pendingStart == pending.count {
            pending = []
            pendingStart = 0
        }
    }

    /// Takes the whole lines of `bytes` (which start at ``offset``); returns the bytes used.
    private mutating func scan<Action: JournalFollowerItem>(_ bytes: ArraySlice<UInt8>, segment: JournalLayout.Segment, limit: Int, into batch: inout Found<Action>) throws(JournalError) -> Int {
        var consumed = 0
        var failure: JournalError?
        bytes.withUnsafeBufferPointer { buffer in
            var start = 0
            while batch.actions.count < limit, let end = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = UnsafeBufferPointer(rebasing: buffer[start..<end])
                let lineOffset = offset + start
                if lineOffset == 0 {
                    legacy = line.first == UInt8(ascii: "{")
                }
                if lineOffset == 0, !legacy {
                    switch JournalSegmentHeader.decode(line) {
                    case .failure(let error):
                        failure = .corrupt(file: segment.path, line: 1, offset: 0, reason: error.description)
                        return
                    case .success(let (header, _)):
                        guard skip(through: header.after, into: &batch) else { return }
                        chain = header.previous
                        // Ids a repair skipped were never given out: nothing is missing there.
                        position = max(position, header.first > 0 ? header.first - 1 : 0)
                    }
                } else {
                    if lineOffset == 0, segment.firstSequence > following {
                        guard skip(through: segment.firstSequence - 1, into: &batch) else { return }
                    }
                    let decoded: Result<Action, JournalLine.DecodeError>
                    var next = chain
                    if legacy {
                        decoded = Action.decode(line)
                    } else {
                        switch JournalRecord.verify(line, continuing: chain) {
                        case .failure(let error): decoded = .failure(error)
                        case .success(let parts):
                            next = parts.checksum
                            decoded = Action.decode(parts.body)
                        }
                    }
                    switch decoded {
                    case .failure(let error):
                        failure = .corrupt(file: segment.path, line: 0, offset: lineOffset, reason: error.description)
                        return
                    case .success(let action):
                        if action.id > following, lineOffset > 0, following > segment.firstSequence {
                            failure = .sequenceGap(file: segment.path, line: 0, offset: lineOffset, expected: following, found: action.id)
                            return
                        }
                        if action.id > following {
                            guard skip(through: action.id - 1, into: &batch) else { return }
                        }
                        chain = next
                        if action.id > position {
                            batch.actions.append(action)
                            position = action.id
                        }
                    }
                }
                start = end + 1
                consumed = start
            }
        }
        if let failure { throw failure }
        return consumed
    }

    /// Records that the actions after ``position`` through `last` are gone, and moves past
    /// them; `false` when the batch already holds actions, so it ends before the gap (a batch's
    /// missing range always comes before its actions).
    private mutating func skip<Action: JournalFollowerItem>(through last: UInt64, into batch: inout Found<Action>) -> Bool {
        guard last > position else { return true }
        guard batch.actions.isEmpty else {
            stoppedAtGap = true
            return false
        }
        let gone = (position + 1)...last
        batch.missing = batch.missing.map { $0.lowerBound...gone.upperBound } ?? gone
        position = last
        return true
    }
}

extension JournalFollower.Found {
    /// The batch, clearing `flag` (a read that stopped at a gap resumes normally).
    fileprivate func stopped(_ flag: inout Bool) -> Self {
        flag = false
        return self
    }
}
