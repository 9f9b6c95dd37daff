/// Numbers: integers kept exact in `Int64`, everything else as a correctly rounded `Double`.
extension JSONParser {
    mutating func parseNumber() throws(JSONParseError) -> JSON {
        let start = index
        let negative = bytes[index] == ASCII.minus
        if negative { index += 1 }
        guard index < bytes.count, Self.isDigit(bytes[index]) else {
            throw error("expected a digit after '-', found \(found())")
        }
        var significand: UInt64 = 0
        var significandOverflowed = false
        var fractionDigits = 0

        func accumulate(_ byte: UInt8) {
            let (shifted, overflow1) = significand.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = shifted.addingReportingOverflow(UInt64(byte &- ASCII.zero))
            if overflow1 || overflow2 { significandOverflowed = true } else { significand = sum }
        }

        if bytes[index] == ASCII.zero {
            index += 1
            if index < bytes.count, Self.isDigit(bytes[index]) {
                throw error(at: start, "a number must not start with a leading zero")
            }
        } else {
            while index < bytes.count, Self.isDigit(bytes[index]) {
                accumulate(bytes[index])
                index += 1
            }
        }
        var isInteger = true
        if index < bytes.count, bytes[index] == ASCII.period {
            isInteger = false
            index += 1
            guard index < bytes.count, Self.isDigit(bytes[index]) else {
                throw error("expected a digit after the decimal point, found \(found())")
            }
            while index < bytes.count, Self.isDigit(bytes[index]) {
                accumulate(bytes[index])
                if !significandOverflowed { fractionDigits += 1 }
                index += 1
            }
        }
        var exponent = 0
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            index += 1
            var exponentNegative = false
            if index < bytes.count, bytes[index] == ASCII.minus || bytes[index] == ASCII.plus {
                exponentNegative = bytes[index] == ASCII.minus
                index += 1
            }
            guard index < bytes.count, Self.isDigit(bytes[index]) else {
                throw error("expected a digit in the exponent, found \(found())")
            }
            while index < bytes.count, Self.isDigit(bytes[index]) {
                exponent = min(exponent * 10 + Int(bytes[index] &- ASCII.zero), 1_000_000)
                index += 1
            }
            if exponentNegative { exponent = -exponent }
        }
        if isInteger, !significandOverflowed {
            if negative, significand <= UInt64(Int64.max) + 1 {
                return .integer(significand == UInt64(Int64.max) + 1 ? .min : -Int64(significand))
            }
            if !negative, significand <= UInt64(Int64.max) {
                return .integer(Int64(significand))
            }
        }
        if !significandOverflowed, let value = Self.exactDouble(significand, exponent: exponent - fractionDigits) {
            return .number(negative ? -value : value)
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw error(at: start, "number \(text) is too large for a 64-bit floating-point value")
        }
        return .number(value)
    }

    /// The correctly rounded value when both the significand and the power of ten are exact
    /// doubles (Clinger's fast path), which covers coordinates and most measurements.
    static func exactDouble(_ significand: UInt64, exponent: Int) -> Double? {
        guard significand <= 1 << 53, (-22...22).contains(exponent) else { return nil }
        let value = Double(significand)
        return exponent < 0 ? value / powersOfTen[-exponent] : value * powersOfTen[exponent]
    }

    static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]
}
