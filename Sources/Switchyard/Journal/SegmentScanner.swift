/// Reads the actions of one segment and checks that they are whole and in sequence.
///
/// Every line must be a journaled action whose sequence number follows the previous one,
/// starting with the segment's first sequence. Bytes after the last newline are a torn last
/// line, the trace of an append cut short by a crash; they are tolerated only in the newest
/// segment, the only one still appended to.
struct SegmentScanner {
    /// What a scan found.
    struct Summary: Sendable, Hashable {
        /// Whole actions in the segment.
        var count = 0
        /// The sequence number of its last whole action, if any.
        var lastSequence: UInt64?
        /// The length of the whole lines; a torn tail starts here.
        var validLength = 0
        /// The length of a torn last line; 0 when the segment ends with a newline.
        var tornLength = 0
    }

    let segment: JournalLayout.Segment
    /// Whether this is the newest segment, where a torn last line is tolerated.
    let isNewest: Bool

    /// Scans `bytes`, handing each action to `body` in order.
    /// - Throws: ``JournalError`` naming the line and byte offset of the first bad record, or
    ///   whatever `body` throws.
    func scan(_ bytes: [UInt8], _ body: (BusAction) throws(JournalError) -> Void) throws(JournalError) -> Summary {
        var summary = Summary()
        var expected = segment.firstSequence
        var lineStart = 0
        var lineNumber = 0
        var failure: JournalError?
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
                switch JournalLine.decode(line) {
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
                    expected = action.id &+ 1
                }
                lineStart = end + 1
                summary.validLength = lineStart
            }
        }
        if let failure { throw failure }
        return summary
    }
}
