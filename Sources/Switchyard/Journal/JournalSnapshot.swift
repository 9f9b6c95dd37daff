import Foundation

/// The bus state after a given action, written so that a restart replays only what follows.
///
/// On disk: one JSON object, `{"sequence": N, "state": {...}, "time": "..."}`, written to a
/// temporary file, flushed and renamed into place, so a snapshot file is always whole.
struct JournalSnapshot: Sendable, Hashable {
    /// The sequence number of the last action the state includes.
    var sequence: UInt64
    /// The bus state after that action.
    var state: JSON

    func encoded(at time: Date) -> [UInt8] {
        var bytes: [UInt8] = []
        let document: JSON = [
            "sequence": .integer(Int64(clamping: sequence)),
            "state": state,
            "time": .string(Timestamp.iso8601(time)),
        ]
        document.serialize(into: &bytes)
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }

    /// Reads the snapshot file `snapshot`, checking it against its name.
    static func read(_ snapshot: JournalLayout.Snapshot) throws(JournalError) -> JournalSnapshot {
        let bytes = try FileSystem.read(snapshot.path)
        let document: JSON
        do {
            document = try JSON(parsing: bytes, maximumDepth: JSONLimits.journalDepth)
        } catch {
            throw .corruptSnapshot(file: snapshot.path, reason: error.description)
        }
        guard let sequence = document["sequence"]?.intValue, sequence >= 0, let state = document["state"] else {
            throw .corruptSnapshot(file: snapshot.path, reason: "expected an object with \"sequence\" and \"state\"")
        }
        guard UInt64(sequence) == snapshot.sequence else {
            throw .corruptSnapshot(file: snapshot.path, reason: "it holds sequence \(sequence), not the \(snapshot.sequence) its name says")
        }
        return JournalSnapshot(sequence: UInt64(sequence), state: state)
    }

    /// Writes the snapshot into the journal directory of `layout`, atomically.
    func write(in layout: JournalLayout, at time: Date) throws(JournalError) {
        try FileSystem.writeAtomically(encoded(at: time), to: layout.snapshotPath(sequence: sequence), directory: layout.directory)
    }
}
