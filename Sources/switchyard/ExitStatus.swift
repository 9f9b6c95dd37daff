import Glibc

/// The process exit codes: sysexits-style for configuration errors, so service managers can
/// tell a broken config from a crash.
enum ExitStatus: Int32 {
    /// Clean exit, also after SIGTERM or SIGINT.
    case success = 0
    /// Anything else that went wrong.
    case failure = 1
    /// The command line was wrong.
    case usage = 2
    /// The configuration is invalid (EX_CONFIG).
    case invalidConfiguration = 78
    /// Stopped by SIGINT (Ctrl-C) before the work was done: 128 + 2, as shells report it.
    case interrupted = 130
    /// Stopped by SIGTERM before the work was done: 128 + 15.
    case terminated = 143

    /// The status of work that `signal` (SIGINT or SIGTERM) stopped.
    static func interrupted(by signal: Int32) -> ExitStatus {
        signal == SIGTERM ? .terminated : .interrupted
    }
}
