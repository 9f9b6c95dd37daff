import Glibc

/// An open file descriptor, closed when the last reference goes away.
///
/// The journal writer appends through one while the flusher syncs it from another thread;
/// holding a reference keeps the descriptor from being closed (and its number reused) under
/// a sync in progress.
final class OpenFile: Sendable {
    let path: String
    let descriptor: Int32

    /// Opens `path` with `flags` and mode 0600 for a created file. `O_CLOEXEC` and
    /// `O_NOFOLLOW` are added: a symbolic link planted in the data directory fails the open
    /// (`ELOOP`) instead of sending the bus's writes to the file it points at.
    init(path: String, flags: Int32) throws(JournalError) {
        let descriptor = open(path, flags | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw .system(path: path, operation: "open", errno: errno) }
        self.path = path
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// Writes every byte, retrying short writes and interruptions.
    func write(_ bytes: [UInt8]) throws(JournalError) {
        let failure = DescriptorWriter.write(bytes, to: descriptor)
        if let failure { throw .system(path: path, operation: "write to", errno: failure) }
    }

    /// Flushes the file's data to the device (`fdatasync`).
    func sync() throws(JournalError) {
        let started = ContinuousClock.now
        guard fdatasync(descriptor) == 0 else { throw .system(path: path, operation: "flush", errno: errno) }
        LatencyHistogram.journalSync.observe(ContinuousClock.now - started)
    }

    /// Cuts the file to `length` bytes.
    func truncate(to length: Int) throws(JournalError) {
        guard ftruncate(descriptor, off_t(length)) == 0 else { throw .system(path: path, operation: "truncate", errno: errno) }
    }

    /// The file's size in bytes.
    func size() throws(JournalError) -> Int {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .system(path: path, operation: "read the size of", errno: errno) }
        return Int(status.st_size)
    }
}
