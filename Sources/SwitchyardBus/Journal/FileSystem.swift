import Glibc

/// The text of an `errno` value, as `strerror` gives it.
enum SystemError {
    static func text(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}

/// The few file-system operations the journal needs, as thin wrappers that report failures
/// as ``JournalError`` with the path and the system's reason.
package enum FileSystem {
    /// Creates `path` and its missing parents with mode 0700 (the data directory holds the
    /// control socket and every action, so it is private to its owner).
    static func makeDirectories(_ path: String) throws(JournalError) {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += component
            if mkdir(prefix, 0o700) != 0, errno != EEXIST {
                throw .system(path: prefix, operation: "create the directory", errno: errno)
            }
            prefix += "/"
        }
        var status = stat()
        guard stat(path, &status) == 0 else { throw .system(path: path, operation: "read", errno: errno) }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            throw .system(path: path, operation: "use", reason: "it exists and is not a directory")
        }
        // A directory created here has mode 0700 already; an existing one is checked by
        // DataDirectoryCheck, which refuses rather than changes what the user made.
    }

    /// The names in the directory at `path`, without `.` and `..`; empty when it does not exist.
    static func names(in path: String) throws(JournalError) -> [String] {
        guard let directory = opendir(path) else {
            if errno == ENOENT { return [] }
            throw .system(path: path, operation: "list", errno: errno)
        }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { buffer in
                String(decoding: buffer.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    /// The whole contents of the regular file at `path`, at most `maximumSize` bytes.
    ///
    /// A symbolic link is not followed and anything but a regular file is refused, opened
    /// non-blocking, so a FIFO or device planted in the data directory never hangs the bus.
    static func read(_ path: String, maximumSize: Int = .max) throws(JournalError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard descriptor >= 0 else { throw .system(path: path, operation: "open", errno: errno) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .system(path: path, operation: "inspect", errno: errno) }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw .system(path: path, operation: "read", reason: "it is not a regular file")
        }
        guard Int(status.st_size) <= maximumSize else {
            throw .system(path: path, operation: "read", reason: "it is larger than \(maximumSize) bytes")
        }
        bytes.reserveCapacity(Int(status.st_size))
        var chunk = [UInt8](repeating: 0, count: 256 << 10)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return bytes }
            if count < 0 {
                if errno == EINTR { continue }
                throw .system(path: path, operation: "read", errno: errno)
            }
            bytes.append(contentsOf: chunk[..<count])
            if bytes.count > maximumSize {
                throw .system(path: path, operation: "read", reason: "it is larger than \(maximumSize) bytes")
            }
        }
    }

    /// The size of the file at `path` in bytes; 0 when it is gone.
    static func size(_ path: String) -> Int {
        var status = stat()
        return stat(path, &status) == 0 ? Int(status.st_size) : 0
    }

    /// Flushes a directory's entries, so a file created or renamed in it survives a crash.
    static func syncDirectory(_ path: String) throws(JournalError) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else { throw .system(path: path, operation: "open", errno: errno) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw .system(path: path, operation: "flush", errno: errno) }
    }

    /// Removes the file at `path`; a file already gone is not an error.
    static func remove(_ path: String) throws(JournalError) {
        guard unlink(path) == 0 || errno == ENOENT else { throw .system(path: path, operation: "remove", errno: errno) }
    }

    /// Writes `bytes` to `path` so that the file is either the old one or the whole new one,
    /// also after a crash: a temporary file is written and flushed, then renamed over `path`.
    /// When writing, flushing or renaming fails the temporary file is removed.
    package static func writeAtomically(_ bytes: [UInt8], to path: String, directory: String) throws(JournalError) {
        let temporary = path + ".tmp"
        let file = try OpenFile(path: temporary, flags: O_WRONLY | O_CREAT | O_TRUNC)
        do throws(JournalError) {
            try file.write(bytes)
            try file.sync()
            guard rename(temporary, path) == 0 else { throw .system(path: path, operation: "rename \(temporary) to", errno: errno) }
        } catch {
            // The temporary file is this call's own: a failed write must not leave half a file.
            unlink(temporary)
            throw error
        }
        try syncDirectory(directory)
    }
}
