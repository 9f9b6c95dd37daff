/// One NMEA 0183 sentence, checksum verified: `$GPRMC,…*7D`.
struct NMEASentence: Sendable, Hashable {
    /// Why a line is not a usable sentence.
    enum Problem: Error, Sendable, Hashable, CustomStringConvertible {
        /// No `*hh` checksum at the end.
        case missingChecksum
        /// The checksum does not match the sentence.
        case badChecksum(expected: UInt8, found: UInt8)

        var description: String {
            switch self {
            case .missingChecksum: "no *hh checksum"
            case .badChecksum(let expected, let found):
                "checksum \(Self.hex(found)) should be \(Self.hex(expected))"
            }
        }

        private static func hex(_ byte: UInt8) -> String {
            let digits = String(byte, radix: 16, uppercase: true)
            return digits.count == 1 ? "0" + digits : digits
        }
    }

    /// The talker, such as `GP` or `GN`.
    let talker: Substring
    /// The sentence type, such as `RMC` or `GGA`.
    let type: Substring
    /// The fields after the address, empty fields included.
    let fields: [Substring]

    /// Parses `line`: garbage before the last `$` is skipped (receivers emit NUL bytes and
    /// partial sentences on reset), blanks and `\r` at the end are ignored. Returns `nil` for a
    /// line without a `$` sentence.
    ///
    /// - Throws: ``Problem`` for a sentence without a valid checksum.
    init?(_ line: Substring) throws(Problem) {
        guard let dollar = line.lastIndex(of: "$") else { return nil }
        var body = line[line.index(after: dollar)...]
        while let last = body.last, last == "\r" || last == " " || last == "\t" { body = body.dropLast() }
        guard let star = body.lastIndex(of: "*") else { throw .missingChecksum }
        let checksumText = body[body.index(after: star)...]
        guard checksumText.utf8.count == 2, let found = UInt8(checksumText, radix: 16) else { throw .missingChecksum }
        let content = body[..<star]
        let expected = content.utf8.reduce(0 as UInt8) { $0 ^ $1 }
        guard expected == found else { throw .badChecksum(expected: expected, found: found) }
        let parts = content.split(separator: ",", omittingEmptySubsequences: false)
        let address = parts[0]
        guard address.count >= 3 else { return nil }
        talker = address.dropLast(3)
        type = address.suffix(3)
        fields = Array(parts.dropFirst())
    }

    /// The field at `index`, or `nil` when absent or empty.
    subscript(_ index: Int) -> Substring? {
        guard fields.indices.contains(index), !fields[index].isEmpty else { return nil }
        return fields[index]
    }

    /// A latitude or longitude from its `ddmm.mmmm` (or `dddmm.mmmm`) field and hemisphere
    /// field; `nil` when either is missing or out of range.
    func coordinateValue(at index: Int, degreeDigits: Int) -> Double? {
        guard let text = self[index], let hemisphere = self[index + 1], text.count > degreeDigits,
            let degrees = Double(text.prefix(degreeDigits)), let minutes = Double(text.dropFirst(degreeDigits)),
            minutes < 60
        else { return nil }
        let value = degrees + minutes / 60
        switch hemisphere {
        case "N", "E": return value
        case "S", "W": return -value
        default: return nil
        }
    }

    /// Seconds since midnight from an `hhmmss(.ss)` field.
    func timeOfDay(at index: Int) -> Double? {
        guard let text = self[index], text.count >= 6, let hours = Int(text.prefix(2)),
            let minutes = Int(text.dropFirst(2).prefix(2)), let seconds = Double(text.dropFirst(4)),
            hours < 24, minutes < 60, seconds < 61
        else { return nil }
        return Double(hours * 3600 + minutes * 60) + seconds
    }
}
