/// The first line of every segment written from version 2 on:
/// `xxxxxxxx {"after":41,"first":42,"journal":2,"previous":"1c291ca3"}`.
///
/// `first` is the sequence number of the segment's first action (also in its name); `after`
/// the last sequence number of the journal before it (`first - 1`, or less where a repair moved
/// actions aside and their ids were skipped so no id is given out twice); `previous` the
/// checksum of the journal's last line before it, from which the header's own checksum
/// continues — the link that makes a missing, emptied or swapped segment visible.
struct JournalSegmentHeader: Sendable, Hashable {
    /// The journal format version this header starts.
    static let version = 2

    var first: UInt64
    var after: UInt64
    var previous: UInt32

    /// Appends the header line; returns its checksum, where the segment's chain continues.
    @discardableResult
    func append(to output: inout [UInt8]) -> UInt32 {
        JournalRecord.append(to: &output, continuing: previous) { output in
            output.append(contentsOf: #"{"after":"#.utf8)
            output.append(contentsOf: String(after).utf8)
            output.append(contentsOf: #","first":"#.utf8)
            output.append(contentsOf: String(first).utf8)
            output.append(contentsOf: #","journal":2,"previous":""#.utf8)
            CRC32C.hex(previous, into: &output)
            output.append(contentsOf: "\"}".utf8)
        }
    }

    /// Reads a header line (without its newline): its checksum must continue from the
    /// `previous` it names. Returns the header and its checksum, or why the line is not one.
    static func decode(_ line: UnsafeBufferPointer<UInt8>) -> Result<(JournalSegmentHeader, UInt32), JournalLine.DecodeError> {
        guard let parts = JournalRecord.split(line) else {
            return .failure(.init(description: "the segment does not start with a header line"))
        }
        let value: JSON
        do {
            value = try JSON(parsing: parts.body)
        } catch {
            return .failure(.init(description: "the header is not a JSON object: \(error.reason) at column \(error.column)"))
        }
        guard value["journal"]?.intValue == version,
              let first = value["first"]?.intValue, first > 0, let after = value["after"]?.intValue, after >= 0, after < first,
              let previousText = value["previous"]?.stringValue, let previous = CRC32C.parseHex(previousText.utf8) else {
            return .failure(.init(description: "the header needs \"journal\": 2, \"first\", \"after\" and \"previous\""))
        }
        switch JournalRecord.verify(line, continuing: previous) {
        case .failure(let error): return .failure(error)
        case .success(let parts): return .success((JournalSegmentHeader(first: UInt64(first), after: UInt64(after), previous: previous), parts.checksum))
        }
    }
}
