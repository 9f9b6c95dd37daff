/// One UTF-8 sequence read against RFC 3629: no overlong forms, no surrogates, nothing past
/// U+10FFFF. The JSON parser and the GPX reader's XML check both validate with it; each
/// words its own error.
package enum UTF8Sequence: Equatable {
    /// A well-formed sequence of `length` bytes (2 to 4).
    case valid(length: Int)
    /// The first byte cannot start a sequence (a continuation byte, `0xC0`, `0xC1`, or
    /// `0xF5` and above).
    case invalidLead
    /// The first byte starts a sequence that a later byte breaks or the end cuts short.
    case invalidSequence

    /// Reads the sequence whose first byte, at `index`, is not ASCII.
    @inline(__always)
    package static func read(at index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> UTF8Sequence {
        let lead = bytes[index]
        let length: Int
        // The second byte's range is what rules out overlongs, surrogates and code points
        // past U+10FFFF.
        var second: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; second = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; second = 0x80...0x9F
        case 0xF0: length = 4; second = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; second = 0x80...0x8F
        default: return .invalidLead
        }
        guard index + length <= bytes.count, second.contains(bytes[index + 1]) else { return .invalidSequence }
        var continuation = index + 2
        while continuation < index + length {
            guard bytes[continuation] & 0xC0 == 0x80 else { return .invalidSequence }
            continuation += 1
        }
        return .valid(length: length)
    }
}
