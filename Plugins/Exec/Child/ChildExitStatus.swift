/// How a child process ended, decoded from a `waitpid` status.
enum ChildExitStatus: Sendable, Hashable, CustomStringConvertible {
    /// The child called `exit` with this code.
    case exited(code: Int32)
    /// A signal ended the child.
    case signalled(signal: Int32)

    /// Decodes a status from `waitpid`; the `WIFEXITED` family are macros Swift cannot import.
    init(waitStatus status: Int32) {
        let terminatingSignal = status & 0x7f
        if terminatingSignal == 0 {
            self = .exited(code: (status >> 8) & 0xff)
        } else {
            self = .signalled(signal: terminatingSignal)
        }
    }

    /// Whether the child exited with code 0.
    var isSuccess: Bool {
        self == .exited(code: 0)
    }

    /// `exit code 3` or `signal 9 (SIGKILL)`.
    var description: String {
        switch self {
        case .exited(let code):
            return "exit code \(code)"
        case .signalled(let signal):
            return "signal \(signal)" + (Self.signalNames[signal].map { " (\($0))" } ?? "")
        }
    }

    private static let signalNames: [Int32: String] = [
        1: "SIGHUP", 2: "SIGINT", 3: "SIGQUIT", 4: "SIGILL", 6: "SIGABRT", 7: "SIGBUS", 8: "SIGFPE",
        9: "SIGKILL", 11: "SIGSEGV", 13: "SIGPIPE", 14: "SIGALRM", 15: "SIGTERM",
    ]
}
