/// Where a journal keeps its files, and what their names mean.
///
/// A journal is a directory of segments, `segment-<first sequence>.jsonl`, each holding the
/// actions from its first sequence number up to the next segment's, and of snapshots,
/// `snapshot-<sequence>.json`, each holding the bus state after that action. Numbers have 20
/// digits so names sort in sequence order. `durable` is the durable mark (``JournalMark``);
/// `damaged-*` directories hold what a repair moved aside. Other names (such as a snapshot's
/// `.tmp` file left by a crash) are ignored.
struct JournalLayout: Sendable, Hashable {
    /// The journal directory, `<dataDirectory>/journal`.
    let directory: String

    /// A segment file and the sequence number of its first action.
    struct Segment: Sendable, Hashable {
        var firstSequence: UInt64
        var path: String
    }

    /// A snapshot file and the sequence number of the last action it includes.
    struct Snapshot: Sendable, Hashable {
        var sequence: UInt64
        var path: String
    }

    init(directory: String) {
        self.directory = directory
    }

    init(dataDirectory: String) {
        self.directory = dataDirectory + "/journal"
    }

    func segmentPath(firstSequence: UInt64) -> String {
        directory + "/segment-" + Self.digits(firstSequence) + ".jsonl"
    }

    /// The durable mark, `durable` (``JournalMark``).
    var markPath: String { directory + "/durable" }

    func snapshotPath(sequence: UInt64) -> String {
        directory + "/snapshot-" + Self.digits(sequence) + ".json"
    }

    /// The segments and snapshots present, each sorted by sequence.
    func list() throws(JournalError) -> (segments: [Segment], snapshots: [Snapshot]) {
        var segments: [Segment] = []
        var snapshots: [Snapshot] = []
        for name in try FileSystem.names(in: directory) {
            if let sequence = Self.sequence(in: name, prefix: "segment-", suffix: ".jsonl") {
                segments.append(Segment(firstSequence: sequence, path: directory + "/" + name))
            } else if let sequence = Self.sequence(in: name, prefix: "snapshot-", suffix: ".json") {
                snapshots.append(Snapshot(sequence: sequence, path: directory + "/" + name))
            }
        }
        segments.sort { $0.firstSequence < $1.firstSequence }
        snapshots.sort { $0.sequence < $1.sequence }
        return (segments, snapshots)
    }

    static func digits(_ sequence: UInt64) -> String {
        let text = String(sequence)
        return String(repeating: "0", count: max(0, 20 - text.count)) + text
    }

    static func sequence(in name: String, prefix: String, suffix: String) -> UInt64? {
        guard name.hasPrefix(prefix), name.hasSuffix(suffix) else { return nil }
        let digits = name.dropFirst(prefix.count).dropLast(suffix.count)
        guard digits.count == 20, digits.utf8.allSatisfy({ (48...57).contains($0) }) else { return nil }
        return UInt64(digits)
    }
}
