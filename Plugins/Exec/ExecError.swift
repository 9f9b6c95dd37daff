import Glibc

/// Why an `exec` plugin's child process could not start, or how it failed.
///
/// The bus reports it in `bus/plugin-failed` and restarts the plugin according to its
/// `restart` policy.
public struct ExecError: Error, Sendable, Hashable, CustomStringConvertible {
    private enum Code: Sendable, Hashable {
        case pipe(errno: Int32)
        case spawn(command: String, errno: Int32)
        case childFailed(command: String, status: ChildExitStatus)
    }

    private let code: Code

    private init(_ code: Code) {
        self.code = code
    }

    /// The pipes to the child could not be created (usually: out of file descriptors).
    static func pipe(errno: Int32) -> ExecError {
        ExecError(.pipe(errno: errno))
    }

    /// `posix_spawn` refused the command (usually: no such file, or not executable).
    static func spawn(command: String, errno: Int32) -> ExecError {
        ExecError(.spawn(command: command, errno: errno))
    }

    /// The child ended by itself with a non-zero exit code or a signal.
    static func childFailed(command: String, status: ChildExitStatus) -> ExecError {
        ExecError(.childFailed(command: command, status: status))
    }

    /// A sentence saying what failed and why.
    public var description: String {
        switch code {
        case .pipe(let errno):
            return "cannot create pipes for the child: \(Self.text(errno))"
        case .spawn(let command, let errno):
            return "cannot start \(command): \(Self.text(errno))"
        case .childFailed(let command, let status):
            return "child \(command) ended with \(status)"
        }
    }

    private static func text(_ errno: Int32) -> String {
        String(cString: strerror(errno))
    }
}
