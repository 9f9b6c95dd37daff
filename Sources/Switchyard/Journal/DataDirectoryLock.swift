import Glibc

/// Exclusive use of a data directory by one bus, held for the bus's life.
///
/// An advisory `flock` on `<dataDirectory>/bus.lock`, which also records the owner's process
/// id. The kernel releases it when the process ends, even by `kill -9`, so a stale lock never
/// blocks a restart; a live bus always blocks a second one.
final class DataDirectoryLock: Sendable {
    let dataDirectory: String
    private let file: OpenFile

    /// Creates the data directory if needed and takes its lock.
    /// - Throws: ``JournalError`` when another live bus holds the directory, or when it cannot
    ///   be created or locked.
    init(dataDirectory: String) throws(JournalError) {
        try FileSystem.makeDirectories(dataDirectory)
        let path = dataDirectory + "/bus.lock"
        let file = try OpenFile(path: path, flags: O_RDWR | O_CREAT)
        guard flock(file.descriptor, LOCK_EX | LOCK_NB) == 0 else {
            if errno == EWOULDBLOCK {
                let digits = ((try? FileSystem.read(path)) ?? []).filter { (48...57).contains($0) }
                throw .inUse(dataDirectory: dataDirectory, owner: digits.isEmpty ? "an unknown process" : "pid \(String(decoding: digits, as: UTF8.self))")
            }
            throw .system(path: path, operation: "lock", errno: errno)
        }
        try file.truncate(to: 0)
        try file.write(Array("\(getpid())\n".utf8))
        self.dataDirectory = dataDirectory
        self.file = file
    }
}
