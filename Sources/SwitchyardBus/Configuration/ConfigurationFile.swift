#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a configuration file with a size limit, so that `switchyard run /dev/zero` fails
/// instead of filling memory, and with the system's own reason when it cannot.
///
/// Only a regular file is read (a symbolic link is followed to one): a FIFO, a device or a
/// socket is refused before any read, and the file is opened non-blocking, so no path can make
/// the bus wait for a writer that never comes (at start or on SIGHUP).
enum ConfigurationFile {
    /// The largest configuration file read: 16 MiB.
    static let maximumSize = 16 << 20

    /// Why a file could not be read, as shown after the file name.
    struct ReadError: Error, CustomStringConvertible {
        var description: String
    }

    /// The bytes of the file at `path`.
    static func read(_ path: String) throws(ReadError) -> [UInt8] {
        // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw failure(errno) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw failure(errno) }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw ReadError(description: "cannot read the file: it is \(kind(status.st_mode)), not a regular file")
        }
        guard Int(status.st_size) <= maximumSize else {
            throw ReadError(description: "cannot read the file: it is larger than 16 MiB")
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = chunk.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return bytes }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure(errno)
            }
            bytes.append(contentsOf: chunk[..<count])
            guard bytes.count <= maximumSize else {
                throw ReadError(description: "cannot read the file: it is larger than 16 MiB")
            }
        }
    }

    private static func kind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: "a directory"
        case S_IFIFO: "a FIFO (named pipe)"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        default: "not a regular file"
        }
    }

    private static func failure(_ code: Int32) -> ReadError {
        ReadError(description: "cannot read the file: " + String(cString: strerror(code)))
    }
}

/// The C `read`, under a name that does not clash with ``ConfigurationFile/read(_:)``.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
