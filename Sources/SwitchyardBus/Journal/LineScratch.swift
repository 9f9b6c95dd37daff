/// Scratch memory on the stack that the fixed-size pieces of a line are written into, then
/// appended to the output with one append.
///
/// Every action's journal line, watcher line and dispatch reply is made of short pieces (a
/// member name, a number, a time, a type), and `Array.append(contentsOf:)` cost about a hundred
/// instructions a call however short the piece: a tenth of the bus's instructions per action
/// went to appending. Pieces here are plain stores; the caller sizes the scratch for the most
/// its pieces can take and checks variable-length ones (``appendPlainString(_:)``) fit.
package struct LineScratch {
    private let base: UnsafeMutablePointer<UInt8>
    let capacity: Int
    /// Bytes written so far.
    private(set) var count = 0

    private init(base: UnsafeMutablePointer<UInt8>, capacity: Int) {
        self.base = base
        self.capacity = capacity
    }

    /// Room left.
    var remaining: Int { capacity - count }

    /// Runs `write` on `capacity` bytes of scratch and appends what it wrote to `output`, when it
    /// returns `true`; with `false` nothing is appended (the caller writes the slow way).
    @discardableResult
    package static func append(capacity: Int, to output: inout [UInt8], _ write: (inout LineScratch) -> Bool) -> Bool {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
            var scratch = LineScratch(base: buffer.baseAddress!, capacity: capacity)
            guard write(&scratch) else { return false }
            output.append(contentsOf: UnsafeBufferPointer(start: scratch.base, count: scratch.count))
            return true
        }
    }

    package mutating func append(_ byte: UInt8) {
        precondition(count < capacity)
        base[count] = byte
        count += 1
    }

    package mutating func append(_ text: StaticString) {
        let length = text.utf8CodeUnitCount
        precondition(length <= remaining)
        (base + count).update(from: text.utf8Start, count: length)
        count += length
    }

    package mutating func append(_ bytes: UnsafeRawBufferPointer) {
        precondition(bytes.count <= remaining)
        guard let start = bytes.baseAddress else { return }
        UnsafeMutableRawPointer(base + count).copyMemory(from: start, byteCount: bytes.count)
        count += bytes.count
    }

    /// Appends `value` in decimal (at most 20 bytes), as `String(value)` spells it.
    package mutating func appendDecimal(_ value: UInt64) {
        var digits = 1
        var scale: UInt64 = 10
        while digits < 20, value >= scale {
            digits += 1
            scale &*= 10
        }
        precondition(digits <= remaining)
        var rest = value
        for position in stride(from: count + digits - 1, through: count, by: -1) {
            base[position] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
        }
        count += digits
    }

    /// Appends `value` as `String(Int64(clamping: value))` spells it (see
    /// ``LineBytes/appendClampedDecimal(_:to:)``).
    package mutating func appendClampedDecimal(_ value: UInt64) {
        appendDecimal(min(value, UInt64(Int64.max)))
    }

    /// Appends `string` as a JSON string when it fits and none of its bytes needs escaping, as
    /// ``JSONWriter/writeString(_:into:)`` would write it; otherwise writes nothing and returns
    /// `false`.
    package mutating func appendPlainString(_ string: String) -> Bool {
        let written: Bool? = string.utf8.withContiguousStorageIfAvailable { bytes in
            guard bytes.count + 2 <= remaining else { return false }
            for byte in bytes where byte < 0x20 || byte == ASCII.quote || byte == ASCII.backslash { return false }
            base[count] = ASCII.quote
            if let start = bytes.baseAddress { (base + count + 1).update(from: start, count: bytes.count) }
            base[count + 1 + bytes.count] = ASCII.quote
            count += bytes.count + 2
            return true
        }
        return written ?? false
    }
}
