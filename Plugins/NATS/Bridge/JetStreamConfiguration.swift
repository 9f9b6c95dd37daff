import SwitchyardBus
import SwitchyardIO

/// The stream the bridge creates when it is absent.
public struct StreamConfiguration: Sendable, Hashable {
    /// When the stream deletes messages.
    public enum Retention: String, Sendable, Hashable, CaseIterable {
        /// When a limit (age, count, bytes) is reached. The default.
        case limits
        /// Once every consumer has acknowledged them.
        case interest
        /// Once one consumer has acknowledged them.
        case workqueue
    }

    /// Where the stream keeps messages.
    public enum Storage: String, Sendable, Hashable, CaseIterable {
        /// On disk, surviving a server restart. The default.
        case file
        /// In memory.
        case memory
    }

    /// The stream's name. Default: the subject prefix in capitals, dots as `_` (`SWITCHYARD`).
    public var name: String
    /// The subjects it captures. Default: everything under the prefix (`switchyard.>`).
    public var subjects: [String]
    /// When messages are deleted. Default: ``Retention/limits``.
    public var retention: Retention
    /// Where messages are kept. Default: ``Storage/file``.
    public var storage: Storage
    /// The longest a message is kept; `nil` for no limit. Default: `nil`.
    public var maxAge: Duration?
    /// The most messages kept; `nil` for no limit. Default: `nil`.
    public var maxMessages: Int?
    /// The most bytes kept; `nil` for no limit. Default: `nil`.
    public var maxBytes: Int?
    /// How long the server remembers message ids to drop duplicates. Default: 2 minutes.
    public var duplicateWindow: Duration
    /// Copies in a cluster. Default: 1.
    public var replicas: Int

    /// Creates a configuration; every parameter has the default documented on its property.
    public init(
        name: String,
        subjects: [String],
        retention: Retention = .limits,
        storage: Storage = .file,
        maxAge: Duration? = nil,
        maxMessages: Int? = nil,
        maxBytes: Int? = nil,
        duplicateWindow: Duration = .seconds(120),
        replicas: Int = 1
    ) {
        self.name = name
        self.subjects = subjects
        self.retention = retention
        self.storage = storage
        self.maxAge = maxAge
        self.maxMessages = maxMessages
        self.maxBytes = maxBytes
        self.duplicateWindow = duplicateWindow
        self.replicas = replicas
    }

    /// The default stream name for a subject prefix: `switchyard` → `SWITCHYARD`.
    public static func defaultName(prefix: String) -> String {
        prefix.uppercased().replacing(".", with: "_")
    }

    /// The body of `$JS.API.STREAM.CREATE.<name>`.
    var json: JSON {
        .object([
            "name": .string(name),
            "subjects": .array(subjects.map(JSON.string)),
            "retention": .string(retention.rawValue),
            "storage": .string(storage.rawValue),
            "max_age": .integer(maxAge?.nanosecondsValue ?? 0),
            "max_msgs": .integer(Int64(maxMessages ?? -1)),
            "max_bytes": .integer(Int64(maxBytes ?? -1)),
            "duplicate_window": .integer(duplicateWindow.nanosecondsValue),
            "num_replicas": .integer(Int64(replicas)),
            "discard": "old",
        ])
    }
}

/// The durable pull consumer through which a bus receives from the stream.
public struct ConsumerConfiguration: Sendable, Hashable {
    /// Where a new consumer starts.
    public enum DeliverPolicy: String, Sendable, Hashable, CaseIterable {
        /// With messages stored after the consumer was created. The default.
        case new
        /// With every message the stream holds.
        case all
    }

    /// The consumer's name; it survives restarts, so a bus resumes where it stopped.
    public var durable: String
    /// Where a new consumer starts. Default: ``DeliverPolicy/new``.
    public var deliverPolicy: DeliverPolicy
    /// How long the server waits for an acknowledgement before delivering again. Default: 30 seconds.
    public var ackWait: Duration
    /// The most messages delivered but not yet acknowledged. Default: 1000.
    public var maxAckPending: Int
    /// The only subject delivered; `nil` for every subject of the stream (the bridge then
    /// filters by its own patterns). Default: `nil`.
    public var filterSubject: String?

    /// Creates a configuration; every parameter has the default documented on its property.
    public init(durable: String, deliverPolicy: DeliverPolicy = .new, ackWait: Duration = .seconds(30), maxAckPending: Int = 1000, filterSubject: String? = nil) {
        self.durable = durable
        self.deliverPolicy = deliverPolicy
        self.ackWait = ackWait
        self.maxAckPending = maxAckPending
        self.filterSubject = filterSubject
    }

    /// Why `name` cannot name a stream or a consumer; `nil` when it can.
    public static func problem(withName name: String) -> String? {
        if name.isEmpty { return "a name cannot be empty" }
        if name.contains(where: { $0 == "." || $0 == "*" || $0 == ">" || $0 == "/" || $0 == "\\" || $0.isWhitespace }) {
            return "\"\(name)\" contains '.', '*', '>', a slash or white space, which JetStream names cannot"
        }
        return nil
    }

    /// `name` with every character a JetStream name cannot hold replaced by `_`.
    public static func sanitized(_ name: String) -> String {
        let cleaned = String(name.map { $0 == "." || $0 == "*" || $0 == ">" || $0 == "/" || $0 == "\\" || $0.isWhitespace ? "_" : $0 })
        return cleaned.isEmpty ? "switchyard" : cleaned
    }

    /// The body of `$JS.API.CONSUMER.DURABLE.CREATE.<stream>.<durable>`.
    func json(stream: String) -> JSON {
        var config: [String: JSON] = [
            "durable_name": .string(durable),
            "ack_policy": "explicit",
            "deliver_policy": .string(deliverPolicy.rawValue),
            "ack_wait": .integer(ackWait.nanosecondsValue),
            "max_ack_pending": .integer(Int64(maxAckPending)),
            "max_deliver": -1,
            "replay_policy": "instant",
        ]
        if let filterSubject { config["filter_subject"] = .string(filterSubject) }
        return .object(["stream_name": .string(stream), "config": .object(config)])
    }
}
