/// Splits a byte stream into lines with bounded memory.
///
/// A line ends at `\n`; a `\r` before it is dropped. At most `maximumLineLength` bytes of an
/// unfinished line are kept: a longer line is skipped up to its newline and reported with its
/// length, so a peer that never sends a newline costs a fixed amount of memory, not a growing
/// one.
struct LineFramer: Sendable {
    /// What framing a chunk produced.
    enum Output: Sendable, Hashable {
        /// A complete line without its terminator.
        case line([UInt8])
        /// A line longer than the limit, skipped; `byteCount` is its length without `\r\n`.
        case discarded(byteCount: Int)
    }

    private struct Discarding: Sendable {
        var byteCount: Int
        var endsInCarriageReturn: Bool
    }

    /// The longest line kept, in bytes, not counting `\r\n`.
    let maximumLineLength: Int
    private var pending: [UInt8] = []
    private var discarding: Discarding?

    /// Creates a framer that keeps lines of up to `maximumLineLength` bytes (at least 1).
    init(maximumLineLength: Int) {
        self.maximumLineLength = max(1, maximumLineLength)
    }

    /// The bytes of the unfinished line held now; never more than `maximumLineLength + 1`.
    var pendingByteCount: Int { pending.count }

    /// Frames `chunk`, calling `body` for every line completed in it, in order.
    mutating func append(_ chunk: some BidirectionalCollection<UInt8>, _ body: (Output) -> Void) {
        var rest = chunk[...]
        while !rest.isEmpty {
            guard let newline = rest.firstIndex(of: UInt8(ascii: "\n")) else {
                take(rest)
                return
            }
            take(rest[..<newline])
            rest = rest[rest.index(after: newline)...]
            body(finishLine())
        }
    }

    private mutating func take(_ bytes: some BidirectionalCollection<UInt8>) {
        guard let last = bytes.last else { return }
        if var skipped = discarding {
            skipped.byteCount += bytes.count
            skipped.endsInCarriageReturn = last == UInt8(ascii: "\r")
            discarding = skipped
        } else if pending.count + bytes.count > maximumLineLength + 1 {
            // One byte of slack above the limit holds the `\r` of a line of exactly the limit.
            discarding = Discarding(
                byteCount: pending.count + bytes.count, endsInCarriageReturn: last == UInt8(ascii: "\r"))
            pending = []
        } else {
            pending.append(contentsOf: bytes)
        }
    }

    private mutating func finishLine() -> Output {
        if let skipped = discarding {
            discarding = nil
            return .discarded(byteCount: skipped.byteCount - (skipped.endsInCarriageReturn ? 1 : 0))
        }
        var line = pending
        pending = []
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        if line.count > maximumLineLength { return .discarded(byteCount: line.count) }
        return .line(line)
    }
}
