import Synchronization

/// What a README snippet printed, line by line: each snippet's hidden wrapper shadows `print`
/// with a local function writing here, so a test checks the output the README promises.
public final class Printed: Sendable {
    private let lines = Mutex<[String]>([])

    /// An empty record.
    public init() {}

    /// The lines printed so far, in order.
    public var all: [String] { lines.withLock { $0 } }

    /// Appends one line: the items' descriptions separated by spaces, as `print` writes them.
    public func append(_ items: [Any]) {
        let line = items.map { "\($0)" }.joined(separator: " ")
        lines.withLock { $0.append(line) }
    }
}
