#if canImport(Glibc)
import Glibc
#endif

/// The slices a data directory's journal was written with: `<dataDirectory>/slices.json`,
/// `{"slices": ["gps", "location"]}`.
///
/// A journal restored into a bus with other slices would silently drop the state of slices
/// the bus lacks and start the new ones empty — the sign of a configuration pointed at
/// another bus's data. So a bus refuses such a journal unless it is told to accept the change
/// (``BusServices/acceptsSliceChanges``, `switchyard run --accept-slice-changes`). The file is
/// written when a bus opens its journal and whenever a reload changes the slices.
struct SliceManifest: Sendable, Hashable {
    /// The slice names, sorted.
    var slices: [String]

    init<S: Sequence<String>>(_ slices: S) {
        self.slices = Array(Set(slices)).sorted()
    }

    static func path(dataDirectory: String) -> String {
        dataDirectory + "/slices.json"
    }

    /// The manifest in `dataDirectory`; `nil` when there is none (a new directory, or a
    /// journal written before manifests existed).
    /// - Throws: ``JournalError`` when the file exists but cannot be read or understood.
    static func read(dataDirectory: String) throws(JournalError) -> SliceManifest? {
        let path = path(dataDirectory: dataDirectory)
        guard access(path, F_OK) == 0 else { return nil }
        let bytes = try FileSystem.read(path)
        guard let document = try? JSON(parsing: bytes), let names = document["slices"]?.arrayValue else {
            throw .system(path: path, operation: "read the slice list", reason: "expected {\"slices\": [names]}; move the file away to start afresh")
        }
        return SliceManifest(names.compactMap(\.stringValue))
    }

    /// Writes the manifest atomically.
    func write(dataDirectory: String) throws(JournalError) {
        let document = JSON.object(["slices": .array(slices.map { .string($0) })])
        try FileSystem.writeAtomically(Array((document.serialized() + "\n").utf8),
                                       to: Self.path(dataDirectory: dataDirectory), directory: dataDirectory)
    }
}
