import Glibc

/// Why an I/O operation failed: a system call's `errno`, a timeout, an address that does not
/// fit or a host name that does not resolve. Its description is a sentence fragment for a log
/// line or an error reply.
package struct IOError: Error, Sendable, Hashable, CustomStringConvertible {
    private enum Code: Sendable, Hashable {
        case system(call: String, errno: Int32)
        case timedOut(Duration)
        case pathTooLong(String, byteCount: Int, limit: Int)
        case resolve(String, reason: String)
    }

    private let code: Code

    private init(_ code: Code) {
        self.code = code
    }

    /// The system call `call` failed with `errno`.
    package static func system(_ call: String, errno: Int32) -> IOError {
        IOError(.system(call: call, errno: errno))
    }

    /// The operation did not finish within `duration`.
    package static func timedOut(after duration: Duration) -> IOError {
        IOError(.timedOut(duration))
    }

    /// A Unix socket path of `byteCount` bytes does not fit a `sockaddr_un` (at most `limit`).
    package static func pathTooLong(_ path: String, byteCount: Int, limit: Int) -> IOError {
        IOError(.pathTooLong(path, byteCount: byteCount, limit: limit))
    }

    /// `host` could not be resolved, for `reason` (the resolver's text).
    package static func resolve(_ host: String, reason: String) -> IOError {
        IOError(.resolve(host, reason: reason))
    }

    /// The `errno` of a failed system call; `nil` for the other failures.
    package var errno: Int32? {
        if case .system(_, let code) = code { return code }
        return nil
    }

    /// The system call that failed; `nil` for the other failures.
    package var call: String? {
        if case .system(let call, _) = code { return call }
        return nil
    }

    /// The resolver's reason a host did not resolve; `nil` for the other failures.
    package var resolveReason: String? {
        if case .resolve(_, let reason) = code { return reason }
        return nil
    }

    /// Whether the failure is a timeout.
    package var isTimeout: Bool {
        if case .timedOut = code { return true }
        return false
    }

    /// The length and limit of a path that did not fit; `nil` for the other failures.
    package var pathLength: (byteCount: Int, limit: Int)? {
        if case .pathTooLong(_, let count, let limit) = code { return (count, limit) }
        return nil
    }

    package var description: String {
        switch code {
        case .system(let call, let code):
            return "\(call) failed: \(IOError.text(code))"
        case .timedOut(let duration):
            return "timed out after \(duration)"
        case .pathTooLong(let path, let count, let limit):
            return "the socket path \(path) is \(count) bytes long; at most \(limit) fit"
        case .resolve(let host, let reason):
            return "cannot resolve \(host): \(reason)"
        }
    }

    /// The system's text for `errno` `code`.
    package static func text(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
