import FoundationEssentials

/// A JSON value: the payload of a ``BusAction``, a slice of bus state, a plugin's settings.
///
/// Integers and fractional numbers are kept apart so that an `Int64` identifier survives a
/// round trip exactly; ``intValue`` and ``doubleValue`` read either form where the value fits.
/// Objects are unordered; serialization writes keys sorted so output is deterministic.
public enum JSON: Sendable, Hashable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSON])
    case object([String: JSON])
}

extension JSON {
    /// An empty object, the usual initial value of a state slice.
    public static let emptyObject: JSON = .object([:])

    /// The value as a `Bool`, or `nil` when it is not a boolean.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The value as a `String`, or `nil` when it is not a string.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The value as an `Int`: an integer, or a fractional number with no fractional part that
    /// fits; `nil` otherwise.
    public var intValue: Int? {
        switch self {
        case .integer(let value): return Int(exactly: value)
        case .number(let value): return Int(exactly: value)
        default: return nil
        }
    }

    /// The value as a `Double`: any number; `nil` for every other kind.
    public var doubleValue: Double? {
        switch self {
        case .integer(let value): return Double(value)
        case .number(let value): return value
        default: return nil
        }
    }

    /// The elements of an array, or `nil` when it is not an array.
    public var arrayValue: [JSON]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The members of an object, or `nil` when it is not an object.
    public var objectValue: [String: JSON]? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// Whether the value is `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The name of the value's kind as written in error messages: `null`, `a boolean`, …
    public var kindDescription: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .integer: return "an integer"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// The member named `key` of an object; `nil` for a missing member or a non-object.
    public subscript(key: String) -> JSON? {
        get {
            if case .object(let members) = self { return members[key] }
            return nil
        }
        set {
            guard case .object(var members) = self else { return }
            members[key] = newValue
            self = .object(members)
        }
    }

    /// The value at a dotted path (`"places.value.0.name"`); array elements are addressed by
    /// their index. An empty path is the value itself; a missing step gives `nil`.
    public func value(atPath path: String) -> JSON? {
        guard !path.isEmpty else { return self }
        return value(atSteps: path.split(separator: ".", omittingEmptySubsequences: false))
    }

    /// The value reached by following `steps` — member names, and indices for array
    /// elements — from this one; `nil` at the first step that is missing. No steps: this value.
    /// The walk under ``value(atPath:)`` and network-fetch's template placeholders.
    package func value(atSteps steps: some Sequence<some StringProtocol>) -> JSON? {
        var current = self
        for step in steps {
            switch current {
            case .object(let members):
                guard let next = members[String(step)] else { return nil }
                current = next
            case .array(let elements):
                guard let index = Int(step), elements.indices.contains(index) else { return nil }
                current = elements[index]
            default:
                return nil
            }
        }
        return current
    }
}

extension JSON: ExpressibleByNilLiteral {
    public init(nilLiteral: ()) { self = .null }
}

extension JSON: ExpressibleByBooleanLiteral {
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension JSON: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int64) { self = .integer(value) }
}

extension JSON: ExpressibleByFloatLiteral {
    public init(floatLiteral value: Double) { self = .number(value) }
}

extension JSON: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
}

extension JSON: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: JSON...) { self = .array(elements) }
}

extension JSON: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, JSON)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
