import Glibc

/// How far the journal is known to be on disk: the file `journal/durable`, rewritten in place
/// after every flush.
///
/// It names the newest segment, the length of it that was flushed, the sequence number and
/// checksum of the line that ends there, and the highest sequence number ever given out. On
/// start-up the journal must reach that point unchanged: a segment deleted, emptied or cut
/// short after it was flushed is damage, not a torn append. Bytes after the mark were never
/// flushed, so a torn final line there cannot have been acknowledged under `fsync: always` and
/// is the only damage repaired silently.
///
/// On disk: one record (``JournalRecord``) padded with spaces to ``size`` bytes, so rewriting it
/// in place never needs a new block — it is written even on a full disk.
struct JournalMark: Sendable, Hashable {
    /// The file's fixed size in bytes.
    static let size = 192

    /// The first sequence number (the name) of the segment the mark is in.
    var first: UInt64
    /// The flushed length of that segment.
    var length: Int
    /// The sequence number of the line that ends at `length` (the header's `after` when the
    /// segment holds no action yet).
    var sequence: UInt64
    /// The chain checksum of that line.
    var chain: UInt32
    /// The highest sequence number ever given out; a repair that moves actions aside keeps
    /// it, so their ids are never given out again.
    var reserved: UInt64

    func encoded() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Self.size)
        JournalRecord.append(to: &bytes, continuing: 0) { output in
            output.append(contentsOf: #"{"chain":""#.utf8)
            CRC32C.hex(chain, into: &output)
            output.append(contentsOf: #"","first":"#.utf8)
            output.append(contentsOf: String(first).utf8)
            output.append(contentsOf: #","length":"#.utf8)
            output.append(contentsOf: String(length).utf8)
            output.append(contentsOf: #","reserved":"#.utf8)
            output.append(contentsOf: String(reserved).utf8)
            output.append(contentsOf: #","sequence":"#.utf8)
            output.append(contentsOf: String(sequence).utf8)
            output.append(UInt8(ascii: "}"))
        }
        bytes.removeLast()
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: Self.size - 1 - bytes.count))
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }

    /// Reads the mark's bytes back; `nil` with the reason when they are not a whole mark.
    static func decode(_ bytes: [UInt8]) -> Result<JournalMark, JournalLine.DecodeError> {
        var end = bytes.count
        while end > 0, bytes[end - 1] == UInt8(ascii: " ") || bytes[end - 1] == UInt8(ascii: "\n") { end -= 1 }
        return bytes.withUnsafeBufferPointer { buffer in
            switch JournalRecord.verify(UnsafeBufferPointer(rebasing: buffer[0..<end]), continuing: 0) {
            case .failure(let error):
                return .failure(error)
            case .success(let parts):
                // `first` 0 is the mark of a journal with no segment flushed yet (under
                // `interval` a bus's first second): it marks nothing, so it has no length.
                guard let value = try? JSON(parsing: parts.body),
                      let first = value["first"]?.intValue, first >= 0, let length = value["length"]?.intValue, length >= 0,
                      let sequence = value["sequence"]?.intValue, sequence >= 0, first > 0 || (length == 0 && sequence == 0),
                      let reserved = value["reserved"]?.intValue, reserved >= sequence,
                      let chainText = value["chain"]?.stringValue, let chain = CRC32C.parseHex(chainText.utf8) else {
                    return .failure(.init(description: "expected \"first\", \"length\", \"sequence\", \"chain\" and \"reserved\""))
                }
                return .success(JournalMark(first: UInt64(first), length: length, sequence: UInt64(sequence),
                                            chain: chain, reserved: UInt64(reserved)))
            }
        }
    }

    /// Reads the mark of the journal in `layout`; `nil` when there is none (a journal written
    /// before marks existed).
    static func read(_ layout: JournalLayout) throws(JournalError) -> JournalMark? {
        let path = layout.markPath
        guard access(path, F_OK) == 0 else { return nil }
        switch decode(try FileSystem.read(path)) {
        case .success(let mark): return mark
        case .failure(let error): throw .corrupt(file: path, line: 1, offset: 0, reason: error.description)
        }
    }

    /// Rewrites the mark in place through `file` and, unless `sync` is false, flushes it.
    func write(to file: OpenFile, sync: Bool) throws(JournalError) {
        let bytes = encoded()
        let written = bytes.withUnsafeBytes { pwrite(file.descriptor, $0.baseAddress, $0.count, 0) }
        guard written == bytes.count else {
            throw .system(path: file.path, operation: "write to", errno: written < 0 ? errno : EIO)
        }
        if sync { try file.sync() }
    }
}
