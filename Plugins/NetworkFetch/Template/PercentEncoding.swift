/// Percent-encoding for values placed into URLs.
enum PercentEncoding {
    /// Encodes every UTF-8 byte except the RFC 3986 unreserved characters (`A-Z a-z 0-9 - . _ ~`),
    /// so a value can sit in a path segment or a query value without changing the URL's
    /// structure: `São Paulo & co` becomes `S%C3%A3o%20Paulo%20%26%20co`.
    static func encode(_ text: String) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if isUnreserved(byte) {
                output.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                output += "%"
                output.unicodeScalars.append(hexDigit(byte >> 4))
                output.unicodeScalars.append(hexDigit(byte & 0x0F))
            }
        }
        return output
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    private static func hexDigit(_ value: UInt8) -> Unicode.Scalar {
        Unicode.Scalar(value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10)
    }
}
