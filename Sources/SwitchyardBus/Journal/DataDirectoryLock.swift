import Glibc
import Synchronization

/// Exclusive use of a data directory by one bus, held for the bus's life.
///
/// An advisory `flock` on the directory itself (a descriptor opened with `O_DIRECTORY`), so
/// deleting any file in it never frees it for a second bus. The kernel releases the lock when
/// the process ends, even by `kill -9`, so a stale lock never blocks a restart; a live bus
/// always blocks a second one. The lock is taken before anything in the directory is read or
/// written; then ``DataDirectoryCheck`` checks ownership and modes, and only then is the
/// owner's process id written to `bus.lock` (for the message a second bus prints).
final class DataDirectoryLock: Sendable {
    /// A directory as the kernel knows it, whatever path named it.
    private struct Identity: Hashable {
        let device: UInt64
        let inode: UInt64
    }

    /// The directories this process's live locks hold.
    private static let heldHere = Mutex<Set<Identity>>([])
    /// How long a lock this process released may still read as held. The kernel frees a
    /// `flock` when the last descriptor of its open file goes, and a child that another thread
    /// is spawning at the moment a bus stops shares the bus's descriptor until it executes its
    /// program; a bus restarted in the same process (a reload, a test) waits that out.
    static let releaseWait: Duration = .seconds(2)

    let dataDirectory: String
    private let descriptor: Int32
    private let identity: Identity

    /// Creates the data directory (mode 0700) if needed, locks it and checks it.
    /// - Throws: ``JournalError`` when another live bus holds the directory, when it or a file
    ///   in it breaks the ownership rules, or when it cannot be created or locked. Nothing in
    ///   the directory is written then.
    /// `releaseWait` is how long a lock this process released is waited for (default
    /// ``releaseWait``).
    init(dataDirectory: String, releaseWait: Duration = DataDirectoryLock.releaseWait) throws(JournalError) {
        try FileSystem.makeDirectories(dataDirectory)
        let descriptor = open(dataDirectory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .system(path: dataDirectory, operation: "open", errno: errno) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let error = errno
            close(descriptor)
            throw .system(path: dataDirectory, operation: "stat", errno: error)
        }
        let identity = Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        do throws(JournalError) {
            try Self.lock(descriptor, identity: identity, dataDirectory: dataDirectory, releaseWait: releaseWait)
        } catch {
            close(descriptor)
            throw error
        }
        do throws(JournalError) {
            try DataDirectoryCheck.verify(directory: descriptor, path: dataDirectory)
            let file = try OpenFile(path: dataDirectory + "/bus.lock", flags: O_WRONLY | O_CREAT | O_TRUNC)
            try file.write(Array("\(getpid())\n".utf8))
        } catch {
            Self.release(descriptor, identity: identity)
            throw error
        }
        self.dataDirectory = dataDirectory
        self.descriptor = descriptor
        self.identity = identity
    }

    deinit {
        Self.release(descriptor, identity: identity)
    }

    /// Forgets the lock before closing its descriptor, so a lock taken here in between is never
    /// the one forgotten.
    private static func release(_ descriptor: Int32, identity: Identity) {
        _ = heldHere.withLock { $0.remove(identity) }
        close(descriptor)
    }

    /// Takes the lock, or throws ``JournalError/inUse(dataDirectory:owner:)`` naming the owner
    /// `bus.lock` records. A lock that reads as held by this process though none of its live
    /// locks holds it is one it just released (see ``releaseWait``): waited for, not refused.
    private static func lock(_ descriptor: Int32, identity: Identity, dataDirectory: String, releaseWait: Duration) throws(JournalError) {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: releaseWait)
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK else { throw .system(path: dataDirectory, operation: "lock", errno: errno) }
            let digits = ((try? FileSystem.read(dataDirectory + "/bus.lock", maximumSize: 64)) ?? []).filter { (48...57).contains($0) }
            let owner = String(decoding: digits, as: UTF8.self)
            let releasedHere = owner == String(getpid()) && !heldHere.withLock { $0.contains(identity) }
            guard releasedHere, clock.now < deadline else {
                throw .inUse(dataDirectory: dataDirectory, owner: digits.isEmpty ? "an unknown process" : "pid \(owner)")
            }
            usleep(5_000)
        }
        heldHere.withLock { _ = $0.insert(identity) }
    }
}
