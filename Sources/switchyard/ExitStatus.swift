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
}
