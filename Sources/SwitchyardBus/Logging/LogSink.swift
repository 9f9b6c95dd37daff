import FoundationEssentials
import Synchronization

/// Where the bus writes its log: whole lines, by default on stderr.
///
/// Lines from many tasks never interleave mid-line. Each line has a level, and optionally the
/// plugin it concerns and metadata; the ``Format`` decides how it is written:
///
/// - `text`: `2026-11-22T09:30:00.125Z switchyard: warning: gps: reconnecting (attempt=3)`
///   — the time is left out when ``timestamps`` is off (under journald, which stamps lines).
/// - `json`: one object a line, `{"level":"warning","message":"reconnecting","metadata":{"attempt":"3"},
///   "plugin":"gps","time":"2026-11-22T09:30:00.125Z"}`, for journald, Loki or jq.
///
/// Tests install their own output to read what the bus said.
public final class LogSink: Sendable {
    /// How serious a line is, from the chattiest up.
    public enum Level: String, Sendable, Hashable, Comparable, CaseIterable {
        case trace, debug, info, warning, error

        private var rank: Int {
            switch self {
            case .trace: 0
            case .debug: 1
            case .info: 2
            case .warning: 3
            case .error: 4
            }
        }

        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rank < rhs.rank }
    }

    /// How lines are written.
    public enum Format: String, Sendable, Hashable, CaseIterable {
        /// For people: a time, the level, the plugin and the message.
        case text
        /// One JSON object a line: `level`, `time`, `message`, and `plugin` and `metadata` when given.
        case json
    }

    /// The lowest level written.
    public let minimumLevel: Level
    /// How lines are written.
    public let format: Format
    /// Whether text lines start with the time (JSON lines always carry it).
    public let timestamps: Bool
    private let now: @Sendable () -> Date
    private let output: @Sendable (String) -> Void
    /// Held while a line is written, so lines never interleave. The output closure stays
    /// outside the lock: a closure stored as a `Mutex`'s value is re-wrapped in two thunks on
    /// every `withLock` that gets it `inout`, so each line grew memory by 64 bytes for good.
    private let writing = Mutex(())
    private let hidden = Mutex(Secrets())

    /// A sink writing to stderr, from `minimumLevel` (default `info`) up, in `format` (default
    /// text), text lines with their time unless `timestamps` is off.
    public convenience init(minimumLevel: Level = .info, format: Format = .text, timestamps: Bool = true) {
        self.init(minimumLevel: minimumLevel, format: format, timestamps: timestamps) { line in DescriptorWriter.writeLine(line, to: 2) }
    }

    /// A sink handing each line (without its newline) to `output`, from `minimumLevel` up.
    /// Text lines carry no time unless `timestamps` is on, so tests can compare them; `now`
    /// gives the time (default: the system clock).
    public init(minimumLevel: Level = .info, format: Format = .text, timestamps: Bool = false,
                now: @escaping @Sendable () -> Date = { Date() }, output: @escaping @Sendable (String) -> Void) {
        self.minimumLevel = minimumLevel
        self.format = format
        self.timestamps = timestamps
        self.now = now
        self.output = output
    }

    /// The secrets of the bus writing here: no line shows them (see ``Secrets``).
    public var secrets: Secrets { hidden.withLock { $0 } }

    /// Adds `secrets` to those every line is cleaned of, as a bus does when it starts or
    /// reloads its configuration. Secrets once added stay hidden.
    public func hide(_ secrets: Secrets) {
        guard !secrets.isEmpty else { return }
        hidden.withLock { $0 = $0.merging(secrets) }
    }

    /// Whether a line at `level` would be written: to skip building costly messages.
    public func isEnabled(_ level: Level) -> Bool { level >= minimumLevel }

    /// Writes one line with every secret replaced by its `${NAME}`, unless `level` is below
    /// the sink's minimum.
    public func write(_ level: Level, _ message: String) {
        write(level, message, plugin: nil)
    }

    /// Writes one line about `plugin` (its name, or `nil` for the bus itself) with `metadata`,
    /// unless `level` is below the sink's minimum.
    public func write(_ level: Level, _ message: String, plugin: String?, metadata: [String: String] = [:]) {
        guard level >= minimumLevel else { return }
        let secrets = self.secrets
        let line = Self.line(level, secrets.redact(message), plugin: plugin, metadata: metadata.mapValues(secrets.redact),
                             format: format, time: timestamps || format == .json ? now() : nil)
        writing.withLock { _ in output(line) }
    }

    /// One formatted line, without its newline: what ``write(_:_:plugin:metadata:)`` writes.
    public static func line(_ level: Level, _ message: String, plugin: String?, metadata: [String: String],
                            format: Format, time: Date?) -> String {
        switch format {
        case .text:
            var line = time.map { Timestamp.iso8601($0) + " " } ?? ""
            line += "switchyard: \(level.rawValue): "
            if let plugin { line += "\(plugin): " }
            line += message
            if !metadata.isEmpty {
                line += " (" + metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", ") + ")"
            }
            return line
        case .json:
            var object: [String: JSON] = ["level": .string(level.rawValue), "message": .string(message)]
            if let time { object["time"] = .string(Timestamp.iso8601(time)) }
            if let plugin { object["plugin"] = .string(plugin) }
            if !metadata.isEmpty { object["metadata"] = .object(metadata.mapValues(JSON.string)) }
            return JSON.object(object).serialized()
        }
    }
}
