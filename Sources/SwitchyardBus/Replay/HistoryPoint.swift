import FoundationEssentials

/// A moment of a journal's history: right after an action, named by its id or by a time (the
/// last action stamped at or before it).
public enum HistoryPoint: Sendable, Hashable, CustomStringConvertible {
    /// Right after the action with this id.
    case id(UInt64)
    /// Right after the last action stamped at or before this time.
    case time(Date)

    /// `42` (an action id, from 1) or an ISO 8601 time (`2026-11-22T09:30:00Z`,
    /// `2026-11-22T09:30:00.125+13:00`).
    /// - Throws: ``HistoryError`` (`invalid-field`) for anything else: garbage, id 0, a
    ///   negative number, an id beyond 64 bits.
    public init(_ text: String) throws(HistoryError) {
        if let id = UInt64(text) {
            guard id > 0 else { throw .invalid("action ids start at 1; \"at\" 0 would be before any action") }
            self = .id(id)
        } else if let time = Timestamp.parseISO8601(text) {
            self = .time(time)
        } else {
            throw .invalid("expected an action id (1, 2, …) or an ISO 8601 time such as 2026-11-22T09:30:00Z, got \(JSON.string(String(text.prefix(80))))")
        }
    }

    /// `42` or the ISO 8601 time.
    public var description: String {
        switch self {
        case .id(let id): String(id)
        case .time(let time): Timestamp.iso8601(time)
        }
    }
}

/// Why a look into the past has no answer: a point that does not parse, one the journal does
/// not hold, a state path with no value, or a journal that cannot be read. `code` is the
/// control protocol's error code (`invalid-field`, `not-found`, `journal-damaged`).
public struct HistoryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `invalid-field` (the request is wrong), `not-found` (the journal holds no such moment or
    /// value), or `journal-damaged` (the journal cannot be read: `journal verify` says why).
    public let code: String
    /// One sentence a person can act on.
    public let message: String

    /// An error with `code` and `message`.
    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }

    /// The HTTP status that goes with ``code``: 400, 404 or 500.
    public var status: Int {
        switch code {
        case "invalid-field": 400
        case "not-found": 404
        default: 500
        }
    }

    public var description: String { message }

    static func invalid(_ message: String) -> HistoryError {
        HistoryError(code: "invalid-field", message: message)
    }

    static func notFound(_ message: String) -> HistoryError {
        HistoryError(code: "not-found", message: message)
    }

    static func journal(_ error: JournalError) -> HistoryError {
        HistoryError(code: "journal-damaged", message: "the journal cannot be read: \(error) (`switchyard journal verify` shows the damage)")
    }
}
