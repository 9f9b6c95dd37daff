/// Cuts a byte stream into lines (`\n`, with an optional `\r` before it), never holding more
/// than one line of at most `maximumLength` bytes, whatever the stream contains.
///
/// A longer line is not kept: it becomes an ``Piece/overlong(excerpt:length:)`` piece with
/// its first bytes and its full length, reported when its newline (or the end of the
/// stream) arrives, and the splitter carries on with the next line.
struct LineSplitter: Sendable {
    /// One unit of output.
    enum Piece: Sendable, Hashable {
        /// A complete line without its line ending.
        case line([UInt8])
        /// A line longer than the maximum: its first bytes and its length without the newline.
        case overlong(excerpt: [UInt8], length: Int)
    }

    /// The longest line kept, in bytes, not counting the line ending.
    let maximumLength: Int
    /// How many leading bytes of an over-long line are kept for the report.
    let excerptLength: Int

    private var pending: [UInt8] = []
    private var isDiscarding = false
    private var discardedExcerpt: [UInt8] = []
    private var discardedLength = 0

    /// Creates a splitter; `excerptLength` defaults to 200 bytes.
    init(maximumLength: Int, excerptLength: Int = 200) {
        precondition(maximumLength > 0 && excerptLength >= 0, "line limits must be positive")
        self.maximumLength = maximumLength
        self.excerptLength = excerptLength
    }

    /// The bytes of the unfinished line currently held.
    var bufferedByteCount: Int { pending.count }

    /// Feeds the next bytes of the stream, appending every line they complete to `pieces`.
    mutating func append(_ bytes: ArraySlice<UInt8>, into pieces: inout [Piece]) {
        var start = bytes.startIndex
        while start < bytes.endIndex {
            guard let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) else {
                take(bytes[start...], completesLine: false, into: &pieces)
                return
            }
            take(bytes[start..<newline], completesLine: true, into: &pieces)
            start = newline + 1
        }
    }

    /// Ends the stream: a last line without a newline still counts as a line.
    mutating func finish(into pieces: inout [Piece]) {
        if isDiscarding || !pending.isEmpty {
            take([], completesLine: true, into: &pieces)
        }
    }

    private mutating func take(_ segment: ArraySlice<UInt8>, completesLine: Bool, into pieces: inout [Piece]) {
        // One byte of slack for a `\r` that the line ending will strip.
        if !isDiscarding, pending.count + segment.count > maximumLength + 1 {
            startDiscarding()
        }
        if isDiscarding {
            if discardedExcerpt.count < excerptLength {
                discardedExcerpt += segment.prefix(excerptLength - discardedExcerpt.count)
            }
            discardedLength += segment.count
            if completesLine {
                pieces.append(.overlong(excerpt: discardedExcerpt, length: discardedLength))
                isDiscarding = false
                discardedExcerpt = []
                discardedLength = 0
            }
            return
        }
        guard completesLine else {
            pending += segment
            return
        }
        var line: [UInt8]
        if pending.isEmpty {
            line = Array(segment)
        } else {
            line = pending + segment
            pending.removeAll(keepingCapacity: true)
        }
        if line.last == UInt8(ascii: "\r") {
            line.removeLast()
        }
        if line.count > maximumLength {
            pieces.append(.overlong(excerpt: Array(line.prefix(excerptLength)), length: line.count))
        } else {
            pieces.append(.line(line))
        }
    }

    private mutating func startDiscarding() {
        isDiscarding = true
        discardedExcerpt = Array(pending.prefix(excerptLength))
        discardedLength = pending.count
        pending = []
    }
}
