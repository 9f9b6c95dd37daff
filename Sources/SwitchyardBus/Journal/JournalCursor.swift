import Glibc

/// A durable position in a bus's journal, kept by a reader in a file of the data directory:
/// the NATS bridge records there the last action JetStream acknowledged, so a restart resumes
/// after it.
///
/// On disk: one checksummed record (``JournalRecord``), `xxxxxxxx {"sequence":1234}` and a
/// newline. It is replaced atomically (a temporary file written, flushed, renamed over it, the
/// directory flushed), so after a crash it holds the old or the new position, never a mix.
/// Like every file of the data directory it must be a regular file of the bus's user that
/// nobody else can write; it is opened without following symbolic links.
public struct JournalCursor: Sendable, Hashable {
    /// The cursor file, `<dataDirectory>/<name>.cursor`.
    public let path: String
    private let directory: String

    /// The largest cursor file read: 4 KiB (a valid one has under 100 bytes).
    static let maximumSize = 4096

    /// The cursor named `name` (a plugin name) in `dataDirectory`.
    public init(dataDirectory: String, name: String) {
        directory = dataDirectory
        path = dataDirectory + "/" + name + ".cursor"
    }

    /// Reads the position; `nil` when there is no cursor file yet.
    /// - Throws: ``JournalError`` when the file is a symbolic link or not a regular file, is
    ///   owned by another user or writable by group or others, cannot be read, or is damaged
    ///   (no valid checksum, not the record this type writes).
    public func load() throws(JournalError) -> UInt64? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            if errno == ELOOP { throw .system(path: path, operation: "use", reason: "it is a symbolic link; the data directory may hold only the bus's own files (remove the link)") }
            throw .system(path: path, operation: "open", errno: errno)
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .system(path: path, operation: "inspect", errno: errno) }
        try DataDirectoryCheck.check(status, path: path)
        guard status.st_mode & S_IFMT == S_IFREG else { throw .system(path: path, operation: "read", reason: "it is not a regular file") }
        var bytes = [UInt8](repeating: 0, count: Self.maximumSize + 1)
        let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count >= 0 else { throw .system(path: path, operation: "read", errno: errno) }
        return try Self.decode(Array(bytes[..<count]), path: path)
    }

    /// Records `sequence` durably, replacing the file atomically.
    /// - Throws: ``JournalError`` when the file cannot be written, flushed or renamed.
    public func store(_ sequence: UInt64) throws(JournalError) {
        try FileSystem.writeAtomically(Self.encode(sequence), to: path, directory: directory)
    }

    /// The file's bytes for `sequence`.
    static func encode(_ sequence: UInt64) -> [UInt8] {
        var bytes: [UInt8] = []
        JournalRecord.append(to: &bytes, continuing: 0) { output in
            output.append(contentsOf: #"{"sequence":"#.utf8)
            output.append(contentsOf: String(sequence).utf8)
            output.append(UInt8(ascii: "}"))
        }
        return bytes
    }

    /// The position in a cursor file's bytes.
    /// - Throws: ``JournalError`` naming what is wrong with them.
    static func decode(_ bytes: [UInt8], path: String) throws(JournalError) -> UInt64 {
        func damaged(_ reason: String) -> JournalError {
            .corrupt(file: path, line: 1, offset: 0, reason: "the cursor is damaged: \(reason)")
        }
        guard bytes.count <= maximumSize else { throw damaged("it is larger than \(maximumSize) bytes") }
        guard bytes.last == UInt8(ascii: "\n") else { throw damaged("it does not end with a newline (\(bytes.count) bytes)") }
        let result = bytes.withUnsafeBufferPointer { buffer in
            JournalRecord.verify(UnsafeBufferPointer(rebasing: buffer[..<(buffer.count - 1)]), continuing: 0).map { parts in
                try? JSON(parsing: parts.body)
            }
        }
        switch result {
        case .failure(let error):
            throw damaged(error.description)
        case .success(let value):
            guard let value, let sequence = value["sequence"]?.intValue, sequence >= 0, value.objectValue?.count == 1 else {
                throw damaged("expected {\"sequence\": N}")
            }
            return UInt64(sequence)
        }
    }
}
