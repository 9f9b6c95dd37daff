import Glibc

/// Exclusive use of a data directory by one bus, held for the bus's life.
///
/// An advisory `flock` on the directory itself (a descriptor opened with `O_DIRECTORY`), so
/// deleting any file in it never frees it for a second bus. The kernel releases the lock when
/// the process ends, even by `kill -9`, so a stale lock never blocks a restart; a live bus
/// always blocks a second one. The lock is taken before anything in the directory is read or
/// written; then ``DataDirectoryCheck`` checks ownership and modes, and only then is the
/// owner's process id written to `bus.lock` (for the message a second bus prints).
final class DataDirectoryLock: Sendable {
    let dataDirectory: String
    private let descriptor: Int32

    /// Creates the data directory (mode 0700) if needed, locks it and checks it.
    /// - Throws: ``JournalError`` when another live bus holds the directory, when it or a file
    ///   in it breaks the ownership rules, or when it cannot be created or locked. Nothing in
    ///   the directory is written then.
    init(dataDirectory: String) throws(JournalError) {
        try FileSystem.makeDirectories(dataDirectory)
        let descriptor = open(dataDirectory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .system(path: dataDirectory, operation: "open", errno: errno) }
        do throws(JournalError) {
            guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
                if errno == EWOULDBLOCK {
                    let digits = ((try? FileSystem.read(dataDirectory + "/bus.lock", maximumSize: 64)) ?? []).filter { (48...57).contains($0) }
                    throw JournalError.inUse(dataDirectory: dataDirectory, owner: digits.isEmpty ? "an unknown process" : "pid \(String(decoding: digits, as: UTF8.self))")
                }
                throw JournalError.system(path: dataDirectory, operation: "lock", errno: errno)
            }
            try DataDirectoryCheck.verify(directory: descriptor, path: dataDirectory)
            let file = try OpenFile(path: dataDirectory + "/bus.lock", flags: O_WRONLY | O_CREAT | O_TRUNC)
            try file.write(Array("\(getpid())\n".utf8))
        } catch {
            close(descriptor)
            throw error
        }
        self.dataDirectory = dataDirectory
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }
}
