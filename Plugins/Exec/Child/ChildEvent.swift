/// Something a child process did, in the order the bus side should see it.
enum ChildEvent: Sendable, Hashable {
    /// A line the child wrote to stdout, without its line ending.
    case output([UInt8])
    /// A stdout line longer than the line limit: its first bytes and its length.
    case overlongOutput(excerpt: [UInt8], length: Int)
    /// A line the child wrote to stderr, cut to the diagnostic limit.
    case diagnostic(String)
    /// The child has been reaped and every pipe to it is closed; always the last event.
    case exited(ChildExitStatus)

    /// The bytes the event holds, for the bound on buffered output.
    var byteCount: Int {
        switch self {
        case .output(let line): return line.count
        case .overlongOutput(let excerpt, _): return excerpt.count
        case .diagnostic(let text): return text.utf8.count
        case .exited: return 0
        }
    }
}
