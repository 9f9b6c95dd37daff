import Foundation
import Synchronization

/// Where the bus writes its log: whole lines, by default on stderr.
///
/// Lines from many tasks never interleave mid-line. Tests install their own output to read
/// what the bus said.
public final class LogSink: Sendable {
    /// How serious a line is.
    public enum Level: String, Sendable, Hashable, Comparable {
        case debug, info, warning, error

        private var rank: Int {
            switch self {
            case .debug: 0
            case .info: 1
            case .warning: 2
            case .error: 3
            }
        }

        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rank < rhs.rank }
    }

    private let minimumLevel: Level
    private let output: Mutex<@Sendable (String) -> Void>
    private let hidden = Mutex(Secrets())

    /// A sink writing `switchyard: LEVEL: message` lines to stderr, from `minimumLevel` (default
    /// `info`) up.
    public convenience init(minimumLevel: Level = .info) {
        self.init(minimumLevel: minimumLevel) { line in DescriptorWriter.writeLine(line, to: 2) }
    }

    /// A sink handing each line (without its newline) to `output`, from `minimumLevel` up.
    public init(minimumLevel: Level = .info, output: @escaping @Sendable (String) -> Void) {
        self.minimumLevel = minimumLevel
        self.output = Mutex(output)
    }

    /// The secrets of the bus writing here: no line shows them (see ``Secrets``).
    public var secrets: Secrets { hidden.withLock { $0 } }

    /// Adds `secrets` to those every line is cleaned of, as a bus does when it starts or
    /// reloads its configuration. Secrets once added stay hidden.
    public func hide(_ secrets: Secrets) {
        guard !secrets.isEmpty else { return }
        hidden.withLock { $0 = $0.merging(secrets) }
    }

    /// Writes one line with every secret replaced by its `${NAME}`, unless `level` is below
    /// the sink's minimum.
    public func write(_ level: Level, _ message: String) {
        guard level >= minimumLevel else { return }
        let line = "switchyard: \(level.rawValue): \(secrets.redact(message))"
        output.withLock { $0(line) }
    }
}
