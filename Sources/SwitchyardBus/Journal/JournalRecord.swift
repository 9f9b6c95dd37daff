/// The framing of every line the journal writes from version 2 on: eight hexadecimal digits of
/// CRC-32C, a space, a JSON object, a newline — `1c291ca3 {"cause":null,"id":1,...}`.
///
/// In a segment the checksums chain: each line's checksum continues from the previous line's
/// (the header's for the first action), so it covers every byte of the segment before it and a
/// changed, missing, repeated or reordered line breaks the chain where it happened. The header
/// continues from the last checksum of the segment before, which links the segments too.
/// Snapshots and the durable mark use the same framing with a checksum of their own bytes.
enum JournalRecord {
    /// The length of `xxxxxxxx ` before the JSON.
    static let prefixLength = 9

    /// Appends a record whose JSON `writeBody` appends, checksummed continuing from `chain`;
    /// returns the record's checksum. The checksum runs over the bytes just written, so framing
    /// costs no copy and no allocation beyond the output's own growth.
    @discardableResult
    static func append(to output: inout [UInt8], continuing chain: UInt32, _ writeBody: (inout [UInt8]) -> Void) -> UInt32 {
        let start = output.count
        LineBytes.append("00000000 ", to: &output)
        writeBody(&output)
        let crc = output.withUnsafeBytes { buffer in
            CRC32C.checksum(UnsafeRawBufferPointer(rebasing: buffer[(start + prefixLength)...]), continuing: chain)
        }
        output.withUnsafeMutableBufferPointer { buffer in
            var shift: UInt32 = 28
            for index in start..<(start + 8) {
                let digit = UInt8((crc >> shift) & 0xF)
                buffer[index] = digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10
                shift &-= 4
            }
        }
        output.append(UInt8(ascii: "\n"))
        return crc
    }

    /// A record's parts: the checksum it carries and its JSON body.
    struct Parts {
        var checksum: UInt32
        var body: UnsafeBufferPointer<UInt8>
    }

    /// Splits a line (without its newline) into checksum and body; `nil` when it does not start
    /// with eight lower-case hexadecimal digits and a space.
    static func split(_ line: UnsafeBufferPointer<UInt8>) -> Parts? {
        guard line.count > prefixLength, line[8] == UInt8(ascii: " "),
              let checksum = CRC32C.parseHex(UnsafeBufferPointer(rebasing: line[0..<8])) else { return nil }
        return Parts(checksum: checksum, body: UnsafeBufferPointer(rebasing: line[prefixLength...]))
    }

    /// Checks a line against its checksum, continuing from `chain`; returns the body, or why not.
    static func verify(_ line: UnsafeBufferPointer<UInt8>, continuing chain: UInt32) -> Result<Parts, JournalLine.DecodeError> {
        guard let parts = split(line) else {
            return .failure(JournalLine.DecodeError(description: "the line does not start with a checksum (8 hexadecimal digits and a space)"))
        }
        let actual = CRC32C.checksum(UnsafeRawBufferPointer(parts.body), continuing: chain)
        guard actual == parts.checksum else {
            var expected: [UInt8] = []
            CRC32C.hex(actual, into: &expected)
            return .failure(JournalLine.DecodeError(description: "checksum mismatch: the line says \(String(decoding: line[0..<8], as: UTF8.self)), its bytes give \(String(decoding: expected, as: UTF8.self)) (a changed byte, or a line out of place)"))
        }
        return .success(parts)
    }
}
