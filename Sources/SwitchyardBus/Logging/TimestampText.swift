import FoundationEssentials

/// The text of the last time written, kept by a writer of many actions from one to the next:
/// the bus stamps every action of a reduced batch with the same time, so most actions repeat
/// the one before and formatting each was a twentieth of the journal writer's instructions.
package struct TimestampText {
    private var time: Date?
    private var bytes: (UInt64, UInt64, UInt64) = (0, 0, 0)
    private var length = 0

    /// Remembers nothing yet.
    package init() {}

    /// Appends `date` as ``Timestamp/appendISO8601(_:to:)`` does.
    package mutating func append(_ date: Date, to output: inout [UInt8]) {
        guard remember(date) else {
            Timestamp.appendISO8601(date, to: &output)
            return
        }
        withUnsafeBytes(of: bytes) { output.append(contentsOf: UnsafeRawBufferPointer(rebasing: $0[..<length])) }
    }

    /// Writes `date`'s text (24 bytes); `false`, writing nothing, for a year without four
    /// digits.
    mutating func append(_ date: Date, to line: inout LineScratch) -> Bool {
        guard remember(date) else { return false }
        withUnsafeBytes(of: bytes) { line.append(UnsafeRawBufferPointer(rebasing: $0[..<length])) }
        return true
    }

    /// Makes `date` the remembered time; `false` when its text is not the usual 24 bytes.
    private mutating func remember(_ date: Date) -> Bool {
        if time != date {
            length = withUnsafeMutableBytes(of: &bytes) { Timestamp.write(date, into: $0.bindMemory(to: UInt8.self)) }
            time = date
        }
        return length > 0
    }
}
