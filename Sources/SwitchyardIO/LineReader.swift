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
        withNext { piece in
            switch piece {
            case .line(let bytes): .line(Array(bytes))
            case .tooLong: .tooLong
            }
        }
    }

    /// What ``withNext(_:)`` lends out: the line's bytes inside the reader's own buffer.
    package enum BorrowedPiece {
        /// A whole line without its ending, valid only during the call.
        case line(UnsafeBufferPointer<UInt8>)
        /// A line longer than the limit, reported as soon as the limit is passed.
        case tooLong
    }

    /// Hands the next whole line (or a ``BorrowedPiece/tooLong`` marker) to `body` without
    /// copying it out of the buffer, and returns what `body` returns; `nil`, without calling
    /// it, when more input is needed. The control server parses every request this way: a
    /// copy of each line cost an allocation per request. `body` must not keep the pointer.
    package mutating func withNext<Result>(_ body: (BorrowedPiece) -> Result) -> Result? {
        while true {
            if let newline = newlineIndex(from: start + searched) {
                let lineStart = start
                var last = newline
                if last > lineStart, buffer[last - 1] == UInt8(ascii: "\r") { last -= 1 }
                start = newline + 1
                searched = 0
                // An empty line is skipped.
                guard last > lineStart else {
                    compact()
                    continue
                }
                defer { compact() }
                return lend(lineStart..<last, to: body)
            }
            searched = buffer.count - start
            if searched > maximumLength {
                discarding = !ended
                start = buffer.count
                searched = 0
                compact()
                return body(.tooLong)
            }
            if ended, start < buffer.count {
                let lineStart = start
                var last = buffer.count
                if buffer[last - 1] == UInt8(ascii: "\r") { last -= 1 }
                start = buffer.count
                searched = 0
                guard last > lineStart else {
                    compact()
                    return nil
                }
                defer { compact() }
                return lend(lineStart..<last, to: body)
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

    /// Calls `body` with the bytes of `range`, or with ``BorrowedPiece/tooLong`` when they are
    /// over the limit.
    private func lend<Result>(_ range: Range<Int>, to body: (BorrowedPiece) -> Result) -> Result {
        guard range.count <= maximumLength else { return body(.tooLong) }
        return buffer.withUnsafeBufferPointer { body(.line(UnsafeBufferPointer(rebasing: $0[range]))) }
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
