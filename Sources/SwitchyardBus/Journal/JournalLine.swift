import FoundationEssentials

/// One journaled action per line: a chained checksum (``JournalRecord``), the action's JSON
/// object (``BusAction/json``), whose `id` is its sequence number, then a newline.
package enum JournalLine {
    /// Appends `action` as one checksummed line continuing the chain at `chain`, which then
    /// holds the line's checksum; its time is written through `times`, which the writer keeps
    /// from one action to the next.
    static func append(_ action: BusAction, chain: inout UInt32, times: inout TimestampText, to output: inout [UInt8]) {
        chain = JournalRecord.append(to: &output, continuing: chain) { appendObject(action, times: &times, to: &$0) }
    }

    /// Appends `action` as a line of version 1, without a checksum: byte for byte what
    /// `action.json.serialized()` and a newline would give. Journals written before checksums
    /// hold such lines; the scanner still reads them.
    static func append(_ action: BusAction, to output: inout [UInt8]) {
        appendObject(action, to: &output)
        output.append(UInt8(ascii: "\n"))
    }

    /// Whether the action's line would nest deeper than the journal reads back
    /// (``JSONLimits/journalDepth``, of which the action object takes one level).
    static func isTooDeep(_ action: BusAction) -> Bool {
        switch action.payload {
        case .array, .object: return JournalSnapshot.isDeeper(action.payload, than: JSONLimits.journalDepth - 1)
        default: return false
        }
    }

    /// Appends `action` as `action.json.serialized()` would, without a newline.
    package static func appendObject(_ action: BusAction, to output: inout [UInt8]) {
        var times = TimestampText()
        appendObject(action, times: &times, to: &output)
    }

    /// Appends `action` as ``appendObject(_:to:)`` does, its time written through `times`,
    /// which the writers of many actions keep from one to the next.
    package static func appendObject(_ action: BusAction, times: inout TimestampText, to output: inout [UInt8]) {
        // The members around the payload each go in with one append (see ``LineScratch``);
        // `{"cause":N,"id":N,"payload":` takes at most 9 + 20 + 6 + 20 + 11 bytes.
        LineScratch.append(capacity: 72, to: &output) { line in
            line.append(#"{"cause":"#)
            if let cause = action.cause { line.appendClampedDecimal(cause) } else { line.append("null") }
            line.append(#","id":"#)
            line.appendClampedDecimal(action.id)
            line.append(#","payload":"#)
            return true
        }
        JSONWriter.write(action.payload, into: &output, indent: nil)
        // The rest's fixed part is 10 + 9 + 24 + 9 + 1 bytes, plus the two strings and their quotes.
        let tail = 57 + action.source.utf8.count + action.type.utf8.count
        let written = LineScratch.append(capacity: tail, to: &output) { line in
            line.append(#","source":"#)
            guard line.appendPlainString(action.source) else { return false }
            line.append(#","time":""#)
            guard times.append(action.time, to: &line) else { return false }
            line.append(#"","type":"#)
            guard line.appendPlainString(action.type) else { return false }
            line.append(UInt8(ascii: "}"))
            return true
        }
        if !written { appendTail(action, to: &output) }
    }

    /// The members after the payload, a piece at a time: for a source or type that needs
    /// escaping, or a time whose year has not four digits.
    private static func appendTail(_ action: BusAction, to output: inout [UInt8]) {
        LineBytes.append(#","source":"#, to: &output)
        JSONWriter.writeString(action.source, into: &output)
        LineBytes.append(#","time":""#, to: &output)
        Timestamp.appendISO8601(action.time, to: &output)
        LineBytes.append(#"","type":"#, to: &output)
        JSONWriter.writeString(action.type, into: &output)
        output.append(UInt8(ascii: "}"))
    }

    /// Reads one line (without its newline) back into an action; every field the writer
    /// writes must be there. The time is read to the millisecond, as the bus stamps it.
    ///
    /// A line in the writer's shape is read field by field (``decodeWritersShape(_:)``),
    /// building only the payload's tree; any other line — hand-written, from an older writer, or
    /// wrong — is parsed whole (``decodeWhole(_:)``), which gives the same action or says what
    /// is wrong. Restores, replays and the history read every line through here.
    static func decode(_ line: UnsafeBufferPointer<UInt8>) -> Result<BusAction, DecodeError> {
        if let action = decodeWritersShape(line) { return .success(action) }
        return decodeWhole(line)
    }

    /// Reads a line as ``appendObject(_:times:to:)`` writes it —
    /// `{"cause":…,"id":N,"payload":…,"source":"…","time":"…","type":"…"}` — with the checks
    /// ``decodeWhole(_:)`` makes; `nil` at the first byte that differs or check that fails
    /// (the whole parse then reads the line and says why). The object around the payload is
    /// never built: parsing it into a dictionary of six members was about half of a line's cost.
    static func decodeWritersShape(_ line: UnsafeBufferPointer<UInt8>) -> BusAction? {
        guard let shape = WritersShape(line), shape.idIsCanonical else { return nil }
        var cause: UInt64?
        if !shape.causeIsNull {
            // As ``BusAction/init(json:defaultSource:)`` reads it: a non-negative `Int64`.
            guard let value = canonicalInteger(line[shape.cause]) else { return nil }
            cause = value
        }
        // The payload nests one level below the line's object, which the whole parse counts.
        guard let payload = try? JSON(parsing: UnsafeBufferPointer(rebasing: line[shape.payload]), maximumDepth: JSONLimits.journalDepth - 1),
              let time = Timestamp.parseISO8601(String(decoding: line[shape.time], as: UTF8.self)),
              ActionType.isValid(shape.type)
        else { return nil }
        return BusAction(type: shape.type, payload: payload, id: shape.id, time: BusClock.nearestMillisecond(time),
                         source: shape.source, cause: cause)
    }

    /// The members of a line as ``appendObject(_:times:to:)`` writes them, found in one pass
    /// without building the payload: what ``decodeWritersShape(_:)`` and the journal's
    /// forwarding reader (``JournaledAction``) check and build from. `nil` at the first byte
    /// that differs from that shape.
    struct WritersShape {
        /// The cause's text: `null` or digits (unchecked).
        let cause: Range<Int>
        /// Whether the cause is `null`.
        let causeIsNull: Bool
        let id: UInt64
        /// Whether the id is written as JSON writes an integer (no leading zero) and fits an `Int64`.
        let idIsCanonical: Bool
        /// The payload's text, unchecked.
        let payload: Range<Int>
        let source: String
        /// The time's text, inside its quotes.
        let time: Range<Int>
        let type: String

        init?(_ line: UnsafeBufferPointer<UInt8>) {
            var reader = JSONReader(line)
            guard reader.take(#"{"cause":"#), let cause = reader.skipValue(), reader.take(#","id":"#) else { return nil }
            let idStart = reader.index
            guard let id = reader.unsignedInteger(), id > 0 else { return nil }
            let idDigits = line[idStart..<reader.index]
            guard reader.take(#","payload":"#), let payload = reader.skipValue(),
                  reader.take(#","source":"#), let source = reader.string(),
                  reader.take(#","time":"#), reader.next == UInt8(ascii: "\""), let time = reader.skipValue(), time.count >= 2,
                  reader.take(#","type":"#), let type = reader.string(),
                  reader.take("}"), reader.atEnd
            else { return nil }
            self.cause = cause
            causeIsNull = line[cause].elementsEqual("null".utf8)
            self.id = id
            idIsCanonical = Self.isCanonical(idDigits) && id <= UInt64(Int64.max)
            self.payload = payload
            self.source = source
            self.time = (time.lowerBound + 1)..<(time.upperBound - 1)
            self.type = type
        }

        /// Digits without a leading zero (`0` itself aside): `007` is not JSON.
        static func isCanonical(_ digits: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
            digits.count == 1 || digits.first != UInt8(ascii: "0")
        }
    }

    /// `digits` as a JSON integer the whole parse and ``BusAction/init(json:defaultSource:)``
    /// accept for an id or cause: only digits, no leading zero, at most `Int64.max`.
    private static func canonicalInteger(_ digits: Slice<UnsafeBufferPointer<UInt8>>) -> UInt64? {
        guard !digits.isEmpty, digits.count <= 19, WritersShape.isCanonical(digits),
              digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        let value = digits.reduce(UInt64(0)) { $0 * 10 + UInt64($1 - UInt8(ascii: "0")) }
        return value <= UInt64(Int64.max) ? value : nil
    }

    /// Reads one line by parsing it whole, in any member order and spacing; every field the
    /// writer writes must be there.
    static func decodeWhole(_ line: UnsafeBufferPointer<UInt8>) -> Result<BusAction, DecodeError> {
        let value: JSON
        do {
            value = try JSON(parsing: line, maximumDepth: JSONLimits.journalDepth)
        } catch {
            return .failure(DecodeError(description: "not a JSON object: \(error.reason) at column \(error.column)"))
        }
        guard case .object(let members) = value else {
            return .failure(DecodeError(description: "expected an action object, got \(value.kindDescription)"))
        }
        for field in ["id", "time", "source", "type"] where members[field] == nil {
            return .failure(DecodeError(description: "the action has no \"\(field)\""))
        }
        do {
            var action = try BusAction(json: value, defaultSource: "")
            guard action.id > 0 else { return .failure(DecodeError(description: "the action's \"id\" must be positive")) }
            action.time = BusClock.nearestMillisecond(action.time)
            return .success(action)
        } catch {
            return .failure(DecodeError(description: error.description))
        }
    }

    /// Why a line is not a journaled action.
    struct DecodeError: Error, Sendable, Hashable, CustomStringConvertible {
        var description: String
    }
}

/// The time the bus stamps on actions: to the millisecond, the precision the journal keeps,
/// so an action replayed from the journal is the action that was reduced.
enum BusClock {
    /// Now, cut to the millisecond.
    static func now() -> Date {
        let milliseconds = (Date().timeIntervalSince1970 * 1000).rounded(.down)
        return Date(timeIntervalSince1970: milliseconds / 1000)
    }

    /// `date` at the nearest millisecond: a parsed `.125` that came out a hair below is 125 ms.
    static func nearestMillisecond(_ date: Date) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 * 1000).rounded() / 1000)
    }
}
