import Glibc

/// The rules a data directory must satisfy before a bus uses it, in the spirit of ssh and
/// systemd: it and everything in it belong to the bus's user and nobody else can write there.
///
/// Checked after the directory's lock is taken (so no other bus changes it meanwhile) and
/// before anything is written: the directory itself, every entry in it and every entry of its
/// `journal` folder must be owned by the effective user, must not be writable by group or
/// others, and must not be a symbolic link (a planted link could make the bus write elsewhere).
enum DataDirectoryCheck {
    /// Checks the directory open as `descriptor` at `path`.
    /// - Throws: ``JournalError`` naming the first path that breaks a rule and what is wrong.
    static func verify(directory descriptor: Int32, path: String) throws(JournalError) {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .system(path: path, operation: "inspect", errno: errno) }
        try check(status, path: path)
        try verifyEntries(of: descriptor, path: path, depth: 0)
    }

    private static func verifyEntries(of descriptor: Int32, path: String, depth: Int) throws(JournalError) {
        // A second descriptor: closedir closes what fdopendir was given.
        let listing = openat(descriptor, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard listing >= 0, let directory = fdopendir(listing) else {
            throw .system(path: path, operation: "list", errno: errno)
        }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { buffer in
                String(decoding: buffer.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            guard name != ".", name != ".." else { continue }
            let entryPath = path + "/" + name
            var status = stat()
            guard fstatat(descriptor, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else {
                if errno == ENOENT { continue }
                throw .system(path: entryPath, operation: "inspect", errno: errno)
            }
            try check(status, path: entryPath)
            if status.st_mode & S_IFMT == S_IFDIR, depth == 0 {
                let child = openat(descriptor, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                guard child >= 0 else { throw .system(path: entryPath, operation: "open", errno: errno) }
                defer { close(child) }
                try verifyEntries(of: child, path: entryPath, depth: depth + 1)
            }
        }
    }

    /// The rules for one file or directory.
    static func check(_ status: stat, path: String) throws(JournalError) {
        let user = geteuid()
        if status.st_mode & S_IFMT == S_IFLNK {
            throw refusal(path, "it is a symbolic link; the data directory may hold only the bus's own files (remove the link)")
        }
        if status.st_uid != user {
            throw refusal(path, "it is owned by uid \(status.st_uid), not by the bus's user (uid \(user)); chown it or use another dataDirectory")
        }
        if status.st_mode & (S_IWGRP | S_IWOTH) != 0 {
            let mode = String(status.st_mode & 0o7777, radix: 8)
            throw refusal(path, "it is writable by group or others (mode 0\(mode)); run chmod go-w on it")
        }
    }

    private static func refusal(_ path: String, _ reason: String) -> JournalError {
        .system(path: path, operation: "use", reason: reason)
    }
}
