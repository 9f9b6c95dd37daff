/// How a watcher of the control socket wants a backlog handled: the `buffer` and `overflow`
/// members of a `watch` request.
///
/// ```json
/// {"op":"watch","actions":"*","buffer":65536,"overflow":"drop-oldest"}
/// ```
public struct WatchOptions: Sendable, Hashable {
    /// What happens when more actions wait for a watcher than its buffer holds, or more bytes
    /// than the server's `watcherBufferBytes`.
    public enum Overflow: String, Sendable, Hashable, CaseIterable {
        /// The watcher is dropped: it gets one `too-slow` error line, then the connection
        /// closes. Nothing is lost without the client knowing. The default.
        case disconnect
        /// The oldest waiting actions are discarded and the watcher stays connected; before
        /// the next line it gets `{"dropped":N,"ok":true}` with the count discarded since the
        /// previous report.
        case dropOldest = "drop-oldest"
    }

    /// The largest `buffer` a client may ask for.
    public static let maximumBuffer = 1 << 20

    /// How many actions may wait for this watcher; `nil` for the server's
    /// `watcherBufferActions` (8192 by default). At most ``maximumBuffer``.
    public var buffer: Int?
    /// What a backlog beyond the buffer does. Default: ``Overflow/disconnect``.
    public var overflow: Overflow

    /// Creates options; the defaults are the server's buffer and ``Overflow/disconnect``.
    public init(buffer: Int? = nil, overflow: Overflow = .disconnect) {
        self.buffer = buffer
        self.overflow = overflow
    }

    /// Reads the `buffer` and `overflow` members of a watch request.
    /// - Throws: ``ControlError`` `invalid-field` for a buffer that is not an integer in
    ///   1…``maximumBuffer`` or an unknown overflow policy.
    init(buffer: JSON?, overflow: JSON?) throws(ControlError) {
        self.init()
        if let buffer {
            guard case .integer(let count) = buffer, (1...Int64(Self.maximumBuffer)).contains(count) else {
                throw .invalidField("buffer", "expected an integer from 1 to \(Self.maximumBuffer), got \(buffer)")
            }
            self.buffer = Int(count)
        }
        if let overflow {
            let known = Overflow.allCases.map(\.rawValue)
            guard let text = overflow.stringValue, let policy = Overflow(rawValue: text) else {
                throw .invalidField("overflow", "expected one of \(known.map { "\"\($0)\"" }.joined(separator: ", ")), got \(overflow)")
            }
            self.overflow = policy
        }
    }

    /// The members this adds to a watch request; none for the defaults.
    var members: [String: JSON] {
        var members: [String: JSON] = [:]
        if let buffer { members["buffer"] = .integer(Int64(buffer)) }
        if overflow != .disconnect { members["overflow"] = .string(overflow.rawValue) }
        return members
    }
}
