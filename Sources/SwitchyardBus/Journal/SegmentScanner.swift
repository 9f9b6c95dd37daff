/// Reads the actions of one segment and checks that they are whole, unchanged and in sequence.
///
/// A segment of version 2 starts with a header (``JournalSegmentHeader``) and every line
/// carries a checksum chained from the line before (``JournalRecord``); a segment written
/// before checksums existed (version 1) holds bare JSON lines and is read as it was. Every
/// action's sequence number must follow the previous one, starting with the segment's first.
/// Bytes after the last newline are a torn last line, the trace of an append cut short; they
/// are tolerated only in the newest segment, and the caller decides whether they can have been
/// acknowledged (``JournalMark``).
struct SegmentScanner {
    /// What a scan found.
    struct Summary: Sendable, Hashable {
        /// The segment's header; `nil` for a version 1 segment (or an empty newest one).
        var header: JournalSegmentHeader?
        /// Whole actions in the segment.
        var count = 0
        /// The sequence number of its last whole action, if any.
        var lastSequence: UInt64?
        /// The checksum of the last whole line (the header's when there is no action): where
        /// the chain continues.
        var chain: UInt32 = 0
        /// The length of the whole lines; a torn tail starts here.
        var validLength = 0
        /// The length of a torn last line; 0 when the segment ends with a newline.
        var tornLength = 0
        /// The sequence number and checksum of the line ending exactly at the requested
        /// ``SegmentScanner/checkpoint`` byte, when one does.
        var checkpoint: Point?

        /// Whether the segment is of version 1: no header, no checksums.
        var isLegacy: Bool { header == nil && validLength > 0 }
        /// The last sequence number the segment accounts for: its last action, else its header's `after`.
        var end: UInt64? { lastSequence ?? header?.after }
    }

    /// A line end: the sequence number it accounts for and the chain checksum there.
    struct Point: Sendable, Hashable {
        var sequence: UInt64
        var chain: UInt32
    }

    let segment: JournalLayout.Segment
    /// Whether this is the newest segment, where a torn last line is tolerated.
    let isNewest: Bool
    /// A byte offset whose line end to report in ``Summary/checkpoint`` (the durable mark).
    var checkpoint: Int?
    /// Hears the offset scanned to every ``progressLines`` lines, for a progress display.
    var onProgress: ((Int) -> Void)?
    /// Often enough that a display moves several times a second in a debug build.
    static let progressLines = 1024

    init(segment: JournalLayout.Segment, isNewest: Bool, checkpoint: Int? = nil) {
        self.segment = segment
        self.isNewest = isNewest
        self.checkpoint = checkpoint
    }

    /// Scans `bytes`, handing each action to `body` in order.
    /// - Throws: ``JournalError`` naming the line and byte offset of the first bad record, or
    ///   whatever `body` throws.
    func scan(_ bytes: [UInt8], _ body: (BusAction) throws(JournalError) -> Void) throws(JournalError) -> Summary {
        var summary = Summary()
        var expected = segment.firstSequence
        var lineStart = 0
        var lineNumber = 0
        var failure: JournalError?
        let legacy = bytes.first == UInt8(ascii: "{")
        bytes.withUnsafeBufferPointer { buffer in
            while lineStart < buffer.count {
                lineNumber += 1
                guard let end = buffer[lineStart...].firstIndex(of: UInt8(ascii: "\n")) else {
                    summary.tornLength = buffer.count - lineStart
                    if !isNewest {
                        failure = .corrupt(file: segment.path, line: lineNumber, offset: lineStart,
                                           reason: "the segment ends in the middle of a line (\(summary.tornLength) bytes without a newline) although a newer segment follows")
                    }
                    return
                }
                let line = UnsafeBufferPointer(rebasing: buffer[lineStart..<end])
                if !legacy, lineNumber == 1 {
                    switch JournalSegmentHeader.decode(line) {
                    case .failure(let error):
                        failure = .corrupt(file: segment.path, line: 1, offset: 0, reason: error.description)
                        return
                    case .success(let (header, _)):
                        guard header.first == segment.firstSequence else {
                            failure = .corrupt(file: segment.path, line: 1, offset: 0,
                                               reason: "the header says the segment starts at \(header.first), its name says \(segment.firstSequence)")
                            return
                        }
                        summary.header = header
                        summary.chain = header.previous
                    }
                } else {
                    let decoded: Result<BusAction, JournalLine.DecodeError>
                    var chain: UInt32 = 0
                    if legacy {
                        decoded = JournalLine.decode(line)
                    } else {
                        switch JournalRecord.verify(line, continuing: summary.chain) {
                        case .failure(let error): decoded = .failure(error)
                        case .success(let parts):
                            chain = parts.checksum
                            decoded = JournalLine.decode(parts.body)
                        }
                    }
                    switch decoded {
                    case .failure(let error):
                        failure = .corrupt(file: segment.path, line: lineNumber, offset: lineStart, reason: error.description)
                        return
                    case .success(let action):
                        guard action.id == expected else {
                            failure = .sequenceGap(file: segment.path, line: lineNumber, offset: lineStart,
                                                   expected: expected, found: action.id)
                            return
                        }
                        do throws(JournalError) {
                            try body(action)
                        } catch {
                            failure = error
                            return
                        }
                        summary.count += 1
                        summary.lastSequence = action.id
                        summary.chain = chain
                        expected = action.id &+ 1
                    }
                }
                lineStart = end + 1
                summary.validLength = lineStart
                if let onProgress, lineNumber % Self.progressLines == 0 { onProgress(lineStart) }
                if lineStart == checkpoint, let sequence = summary.end { summary.checkpoint = Point(sequence: sequence, chain: summary.chain) }
            }
        }
        if let failure { throw failure }
        if !isNewest, summary.validLength == 0 {
            throw .corrupt(file: segment.path, line: 1, offset: 0, reason: "the segment is empty although a newer segment follows")
        }
        return summary
    }
}
