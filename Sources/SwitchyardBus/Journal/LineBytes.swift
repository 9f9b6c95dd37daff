/// Small writers for the lines the bus sends per action (journal lines, watcher lines, dispatch
/// replies, and the NATS bridge's protocol lines): numbers and fixed text go straight into the
/// byte buffer.
///
/// Every dispatched action is written at least twice (its journal line and its reply, plus a
/// line per watcher), and building a `String` for each number and copying a string literal's
/// UTF-8 through `String.UTF8View` cost more than the rest of the line.
package enum LineBytes {
    /// Appends the bytes of `text`.
    @inline(__always)
    package static func append(_ text: StaticString, to output: inout [UInt8]) {
        text.withUTF8Buffer { output.append(contentsOf: $0) }
    }

    /// Appends the UTF-8 bytes of `text` at once: through `String.UTF8View`, `append(contentsOf:)`
    /// took the element-by-element path.
    @inline(__always)
    package static func append(_ text: String, to output: inout [UInt8]) {
        var text = text
        text.withUTF8 { output.append(contentsOf: $0) }
    }

    /// Appends `value` in decimal, as `String(value)` spells it (through ``LineScratch``, which
    /// writes the digits).
    package static func appendDecimal(_ value: UInt64, to output: inout [UInt8]) {
        if value < 10 {
            output.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value))
            return
        }
        LineScratch.append(capacity: 20, to: &output) { digits in
            digits.appendDecimal(value)
            return true
        }
    }

    /// Appends `value` as `String(Int64(clamping: value))` spells it: the JSON number an `id`
    /// or `cause` reads back as.
    @inline(__always)
    package static func appendClampedDecimal(_ value: UInt64, to output: inout [UInt8]) {
        appendDecimal(min(value, UInt64(Int64.max)), to: &output)
    }
}
