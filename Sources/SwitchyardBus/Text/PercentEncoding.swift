/// Percent-encoding, written here because the bus links FoundationEssentials only, which has
/// no `addingPercentEncoding(withAllowedCharacters:)`.
package enum PercentEncoding {
    /// Which bytes stay as they are.
    package enum Kept: Sendable {
        /// The RFC 3986 unreserved characters: `A-Z a-z 0-9 - . _ ~`.
        case unreserved
        /// What may stand in a URL's path: the unreserved characters, the sub-delimiters
        /// `! $ & ' ( ) * + , ; =`, and `: @ /`.
        case path
        /// What may stand in a URL's query: as ``path``, and `?`.
        case query
        /// ASCII letters and digits only.
        case alphanumerics
    }

    /// Encodes every UTF-8 byte of `text` that `kept` does not keep, so a value can sit in a
    /// path segment or a query value without changing the URL's structure: with the default,
    /// `São Paulo & co` becomes `S%C3%A3o%20Paulo%20%26%20co`.
    package static func encode(_ text: String, keeping kept: Kept = .unreserved) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if keeps(byte, kept) {
                output.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                output += "%"
                output.unicodeScalars.append(hexDigit(byte >> 4))
                output.unicodeScalars.append(hexDigit(byte & 0x0F))
            }
        }
        return output
    }

    /// `text` with every `%XX` turned back into its byte (and `+` into a space when
    /// `plusIsSpace`, as in a form-encoded query); `nil` when an escape is malformed or the bytes
    /// are not UTF-8 (as Foundation's `removingPercentEncoding`).
    package static func decode(_ text: some StringProtocol, plusIsSpace: Bool = false) -> String? {
        guard text.contains("%") || (plusIsSpace && text.contains("+")) else { return String(text) }
        return decodeBytes(text, plusIsSpace: plusIsSpace).flatMap { String(validating: $0, as: UTF8.self) }
    }

    /// The bytes `text` stands for, undoing every `%XX` (and `+` when `plusIsSpace`); `nil` when
    /// a `%` is not followed by two hex digits.
    package static func decodeBytes(_ text: some StringProtocol, plusIsSpace: Bool = false) -> [UInt8]? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
                bytes.append(high << 4 | low)
            } else if plusIsSpace, byte == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else {
                bytes.append(byte)
            }
        }
        return bytes
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private static func keeps(_ byte: UInt8, _ kept: Kept) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            return kept != .alphanumerics
        case UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"),
            UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="), UInt8(ascii: ":"),
            UInt8(ascii: "@"), UInt8(ascii: "/"):
            return kept == .path || kept == .query
        case UInt8(ascii: "?"):
            return kept == .query
        default:
            return false
        }
    }

    private static func hexDigit(_ value: UInt8) -> Unicode.Scalar {
        Unicode.Scalar(value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10)
    }
}
