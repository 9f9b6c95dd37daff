import FoundationEssentials

/// The bus state after a given action, written so that a restart replays only what follows.
///
/// On disk: one checksummed record (``JournalRecord``),
/// `xxxxxxxx {"chain":"1c291ca3","sequence":N,"state":{...},"time":"..."}`, written to a
/// temporary file, flushed and renamed into place, so a snapshot file is always whole. `chain`
/// is the journal's chain checksum at action N, which the next segment's header continues.
/// Snapshots written before checksums existed (a bare JSON object) are still read.
struct JournalSnapshot: Sendable, Hashable {
    /// The sequence number of the last action the state includes.
    var sequence: UInt64
    /// The bus state after that action.
    var state: JSON
    /// The journal's chain checksum at that action; `nil` for a snapshot of version 1.
    var chain: UInt32?

    init(sequence: UInt64, state: JSON, chain: UInt32? = nil) {
        self.sequence = sequence
        self.state = state
        self.chain = chain
    }

    /// The snapshot's bytes.
    /// - Throws: ``JournalError`` when the state is nested deeper than a snapshot can hold
    ///   and be read back (``JSONLimits/journalDepth`` with the document around it).
    func encoded(at time: Date, path: String) throws(JournalError) -> [UInt8] {
        guard !Self.isDeeper(state, than: JSONLimits.journalDepth - 1) else {
            throw .corruptSnapshot(file: path, reason: "not written: the state is nested deeper than the \(JSONLimits.journalDepth - 1) levels a snapshot can hold and read back")
        }
        var bytes: [UInt8] = []
        JournalRecord.append(to: &bytes, continuing: 0) { output in
            var document: JSON = [
                "sequence": .integer(Int64(clamping: sequence)),
                "state": state,
                "time": .string(Timestamp.iso8601(time)),
            ]
            if let chain {
                var digits: [UInt8] = []
                CRC32C.hex(chain, into: &digits)
                document["chain"] = .string(String(decoding: digits, as: UTF8.self))
            }
            document.serialize(into: &output)
        }
        return bytes
    }

    /// Reads the snapshot file `snapshot`, checking its checksum and its name.
    static func read(_ snapshot: JournalLayout.Snapshot) throws(JournalError) -> JournalSnapshot {
        try decode(try FileSystem.read(snapshot.path), snapshot)
    }

    /// Reads a snapshot's bytes, checking its checksum and its name.
    static func decode(_ bytes: [UInt8], _ snapshot: JournalLayout.Snapshot) throws(JournalError) -> JournalSnapshot {
        let parsed: Result<JSON, JournalLine.DecodeError> = bytes.withUnsafeBufferPointer { buffer in
            var body = buffer
            if buffer.first != UInt8(ascii: "{") {
                var end = buffer.count
                if end > 0, buffer[end - 1] == UInt8(ascii: "\n") { end -= 1 }
                switch JournalRecord.verify(UnsafeBufferPointer(rebasing: buffer[0..<end]), continuing: 0) {
                case .failure(let error): return .failure(error)
                case .success(let parts): body = parts.body
                }
            }
            do throws(JSONParseError) {
                return .success(try JSON(parsing: body, maximumDepth: JSONLimits.journalDepth))
            } catch {
                return .failure(.init(description: error.description))
            }
        }
        let document: JSON
        switch parsed {
        case .failure(let error): throw .corruptSnapshot(file: snapshot.path, reason: error.description)
        case .success(let value): document = value
        }
        guard let sequence = document["sequence"]?.intValue, sequence >= 0, let state = document["state"] else {
            throw .corruptSnapshot(file: snapshot.path, reason: "expected an object with \"sequence\" and \"state\"")
        }
        guard UInt64(sequence) == snapshot.sequence else {
            throw .corruptSnapshot(file: snapshot.path, reason: "it holds sequence \(sequence), not the \(snapshot.sequence) its name says")
        }
        var chain: UInt32?
        if let text = document["chain"] {
            guard let digits = text.stringValue, let value = CRC32C.parseHex(digits.utf8) else {
                throw .corruptSnapshot(file: snapshot.path, reason: "\"chain\" must be 8 hexadecimal digits")
            }
            chain = value
        }
        return JournalSnapshot(sequence: UInt64(sequence), state: state, chain: chain)
    }

    /// Writes the snapshot into the journal directory of `layout`, atomically.
    func write(in layout: JournalLayout, at time: Date) throws(JournalError) {
        let path = layout.snapshotPath(sequence: sequence)
        try FileSystem.writeAtomically(try encoded(at: time, path: path), to: path, directory: layout.directory)
    }

    /// Whether `value` nests arrays and objects more than `limit` levels deep (a scalar is 0
    /// levels). Descends at most `limit + 1` levels, so any value is safe to ask about.
    static func isDeeper(_ value: JSON, than limit: Int) -> Bool {
        switch value {
        case .array(let elements):
            guard limit > 0 else { return true }
            for index in elements.indices where isDeeperContainer(elements[index], than: limit - 1) { return true }
            return false
        case .object(let members):
            guard limit > 0 else { return true }
            let values = members.values
            for index in values.indices where isDeeperContainer(values[index], than: limit - 1) { return true }
            return false
        default:
            return false
        }
    }

    /// ``isDeeper(_:than:)`` for a member or element, read in place: the journal asks this of
    /// every action's payload, whose members are mostly scalars, which need no call and no copy.
    private static func isDeeperContainer(_ value: borrowing JSON, than limit: Int) -> Bool {
        switch value {
        case .array, .object: return isDeeper(copy value, than: limit)
        default: return false
        }
    }
}
