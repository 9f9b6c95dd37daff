/// A journaled action as its line holds it: the id, type and source read, the payload left
/// as the JSON text the journal wrote (``JSON/serialize(into:)``'s bytes for the payload), so
/// a reader that passes the payload on (the NATS bridge publishing from the journal) neither
/// parses it nor writes it again.
public struct JournaledAction: Sendable, Hashable {
    /// The action's id, its sequence number in the journal.
    public var id: UInt64
    /// The action's type.
    public var type: String
    /// The plugin (or client) that emitted it.
    public var source: String
    /// The payload as JSON text.
    public var payload: [UInt8]

    /// An action as journaled.
    public init(id: UInt64, type: String, source: String, payload: [UInt8]) {
        self.id = id
        self.type = type
        self.source = source
        self.payload = payload
    }
}

/// What ``JournalFollower`` can read a line as.
protocol JournalFollowerItem: Sendable, Hashable {
    /// The sequence number.
    var id: UInt64 { get }
    /// Reads one line's body (without checksum and newline).
    static func decode(_ line: UnsafeBufferPointer<UInt8>) -> Result<Self, JournalLine.DecodeError>
}

extension BusAction: JournalFollowerItem {
    static func decode(_ line: UnsafeBufferPointer<UInt8>) -> Result<BusAction, JournalLine.DecodeError> {
        JournalLine.decode(line)
    }
}

extension JournaledAction: JournalFollowerItem {
    /// Reads a line as ``JournalLine/appendObject(_:to:)`` writes it —
    /// `{"cause":…,"id":N,"payload":…,"source":"…","time":"…","type":"…"}` — finding the end
    /// of the payload without building it (the line's checksum already vouches for its
    /// bytes). A line in any other shape (hand-written, an older writer) is read in full
    /// instead, so the result is the same either way.
    static func decode(_ line: UnsafeBufferPointer<UInt8>) -> Result<JournaledAction, JournalLine.DecodeError> {
        var reader = LineReader(line)
        if let fast = reader.read() { return .success(fast) }
        return JournalLine.decode(line).map { action in
            var payload: [UInt8] = []
            action.payload.serialize(into: &payload)
            return JournaledAction(id: action.id, type: action.type, source: action.source, payload: payload)
        }
    }

    /// Reads the writer's shape; `nil` at the first byte that differs.
    private struct LineReader {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        init(_ bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
        }

        mutating func read() -> JournaledAction? {
            guard expect(#"{"cause":"#), skipValue() != nil,
                  expect(#","id":"#), let id = number(), id > 0,
                  expect(#","payload":"#), let payload = skipValue(),
                  expect(#","source":"#), let source = string(),
                  expect(#","time":"#), bytes.count > index, bytes[index] == UInt8(ascii: "\""), skipValue() != nil,
                  expect(#","type":"#), let type = string(),
                  index == bytes.count - 1, bytes[index] == UInt8(ascii: "}")
            else { return nil }
            return JournaledAction(id: id, type: type, source: source, payload: Array(UnsafeBufferPointer(rebasing: bytes[payload])))
        }

        private mutating func expect(_ text: StaticString) -> Bool {
            let count = text.utf8CodeUnitCount
            guard bytes.count - index >= count else { return false }
            for offset in 0..<count where bytes[index + offset] != text.utf8Start[offset] { return false }
            index += count
            return true
        }

        private mutating func number() -> UInt64? {
            var value: UInt64 = 0
            let start = index
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9"), index - start < 19 {
                value = value * 10 + UInt64(bytes[index] - UInt8(ascii: "0"))
                index += 1
            }
            return index > start ? value : nil
        }

        /// A string without escapes; one with escapes is left to the full reader.
        private mutating func string() -> String? {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
            let start = index + 1
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: "\"") {
                if bytes[end] == UInt8(ascii: "\\") || bytes[end] < 0x20 { return nil }
                end += 1
            }
            guard end < bytes.count else { return nil }
            index = end + 1
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        }

        /// Moves past one JSON value (brackets matched, strings with their escapes) and
        /// returns its range.
        private mutating func skipValue() -> Range<Int>? {
            let start = index
            var depth = 0
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    index += 1
                    while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                        index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                    }
                    guard index < bytes.count else { return nil }
                    index += 1
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                    index += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    guard depth > 0 else { return index > start ? start..<index : nil }
                    depth -= 1
                    index += 1
                case UInt8(ascii: ","):
                    if depth == 0 { return index > start ? start..<index : nil }
                    index += 1
                default:
                    index += 1
                }
                if depth == 0, index > start, bytes[start] == UInt8(ascii: "\"") || bytes[start] == UInt8(ascii: "{") || bytes[start] == UInt8(ascii: "[") {
                    return start..<index
                }
            }
            return depth == 0 && index > start ? start..<index : nil
        }
    }
}
