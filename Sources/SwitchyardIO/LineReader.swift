import Glibc

/// Splits a byte stream into lines, with a limit on a line's length.
///
/// A line longer than ``maximumLength`` is reported once as ``Piece/tooLong`` and its bytes
/// are discarded up to the next newline, so a flood of oversized input never grows memory
/// past the limit. Empty lines are skipped; a trailing `\r` is removed. At the end of input, an
/// unterminated last line still counts. Pull-based: a reader hands out one piece per
/// ``next()``, so its owner can stop taking lines (and reading) while it is busy.
package struct LineReader: Sendable {
    /// What the reader hands out.
    package enum Piece: Sendable, Hashable {
        /// A whole line without its ending.
        case line([UInt8])
        /// A line longer than the limit, reported as soon as the limit is passed.
        case tooLong
    }

    /// The longest line handed out, in bytes, without its ending.
    package let maximumLength: Int
    private var buffer: [UInt8] = []
    private var start = 0
    /// Bytes after `start` already searched for a newline without finding one.
    private var searched = 0
    private var discarding = false
    private var ended = false

    /// Creates a reader for lines of up to `maximumLength` bytes.
    package init(maximumLength: Int) {
        self.maximumLength = maximumLength
    }

    /// The bytes held and not yet handed out.
    package var bufferedCount: Int { buffer.count - start }

    /// Whether every byte held has been searched without finding a newline: only more input
    /// can produce the next line.
    package var needsInput: Bool { searched == bufferedCount }

    /// Whether the input has ended and every line has been handed out.
    package var isFinished: Bool { ended && bufferedCount == 0 }

    /// Adds bytes read from the stream.
    package mutating func append(_ bytes: UnsafeRawBufferPointer) {
        var bytes = bytes[...]
        if discarding {
            guard let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) else { return }
            discarding = false
            bytes = bytes[(newline + 1)...]
        }
        buffer.append(contentsOf: bytes)
    }

    /// Marks the end of the stream.
    package mutating func end() {
        ended = true
    }

    /// The next whole line, a ``Piece/tooLong`` marker, or `nil` when more input is needed.
    package mutating func next() -> Piece? {
        while true {
            if let newline = newlineIndex(from: start + searched) {
                let piece = cut(upTo: newline)
                start = newline + 1
                searched = 0
                compact()
                if let piece { return piece }
                continue
            }
            searched = buffer.count - start
            if searched > maximumLength {
                discarding = !ended
                start = buffer.count
                searched = 0
                compact()
                return .tooLong
            }
            if ended, start < buffer.count {
                let piece = cut(upTo: buffer.count)
                start = buffer.count
                searched = 0
                compact()
                if let piece { return piece }
            }
            return nil
        }
    }

    /// The index of the first newline at or after `from`, found with `memchr`: every byte
    /// of every request passes here.
    private func newlineIndex(from: Int) -> Int? {
        buffer.withUnsafeBufferPointer { bytes in
            guard from < bytes.count, let base = bytes.baseAddress,
                  let found = memchr(base + from, Int32(UInt8(ascii: "\n")), bytes.count - from) else { return nil }
            return UnsafeRawPointer(found) - UnsafeRawPointer(base)
        }
    }

    /// The line from `start` to `end`, `nil` for an empty one.
    private func cut(upTo end: Int) -> Piece? {
        var last = end
        if last > start, buffer[last - 1] == UInt8(ascii: "\r") { last -= 1 }
        guard last > start else { return nil }
        guard last - start <= maximumLength else { return .tooLong }
        return .line(Array(buffer[start..<last]))
    }

    private mutating func compact() {
        if start == buffer.count {
            // Keep a usual buffer; let one that a long line grew go.
            buffer.removeAll(keepingCapacity: buffer.capacity <= 64 << 10)
            start = 0
        } else if start >= 64 << 10 {
            buffer.removeFirst(start)
            start = 0
        }
    }
}
