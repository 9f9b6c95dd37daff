import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A pseudo-terminal for a child process's stdin, so the child sees a real terminal
/// (`isatty` is true) and a test types into it as a user would: a line and Enter, or Ctrl-D.
///
/// Made from `/dev/ptmx` with the Linux ioctls, since the Glibc module does not export
/// `posix_openpt`, `unlockpt` and `ptsname`. The terminal is in its default canonical mode:
/// the child reads a line once Enter is typed, and Ctrl-D on an empty line is its end of input.
public final class PseudoTerminal: Sendable {
    /// The terminal side: hand it to the child as its stdin.
    public let terminal: FileHandle
    private let controller: Int32

    /// Opens a new pseudo-terminal.
    /// - Throws: ``Failure`` when `/dev/ptmx` or the terminal side cannot be opened.
    public init() throws {
        let controller = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard controller >= 0 else { throw Failure(description: "cannot open /dev/ptmx: \(String(cString: strerror(errno)))") }
        var unlock: Int32 = 0
        var number: UInt32 = 0
        // TIOCSPTLCK (unlock the terminal side) and TIOCGPTN (its number under /dev/pts).
        guard ioctl(controller, 0x4004_5431, &unlock) == 0, ioctl(controller, 0x8004_5430, &number) == 0 else {
            close(controller)
            throw Failure(description: "cannot set up the pseudo-terminal: \(String(cString: strerror(errno)))")
        }
        let terminal = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard terminal >= 0 else {
            close(controller)
            throw Failure(description: "cannot open /dev/pts/\(number): \(String(cString: strerror(errno)))")
        }
        self.controller = controller
        self.terminal = FileHandle(fileDescriptor: terminal, closeOnDealloc: true)
    }

    /// Types `text` at the terminal, as a user would (`"\n"` is Enter, `"\u{4}"` Ctrl-D).
    public func type(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(controller, $0.baseAddress, $0.count) }
    }

    /// What the child has written to the terminal since the last call, without waiting.
    public func readAvailable() -> String {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            var ready = pollfd(fd: controller, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 0) == 1, ready.revents & Int16(POLLIN) != 0 else { break }
            let count = chunk.withUnsafeMutableBytes { read(controller, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            bytes += chunk[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Why a pseudo-terminal could not be opened.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    deinit {
        close(controller)
    }
}
