import FoundationEssentials

extension JSON: Codable {
    /// Decodes whatever value the decoder holds: `null`, a boolean, an integer that fits
    /// `Int64`, any other number, a string, an array or an object.
    ///
    /// - Throws: `DecodingError.dataCorrupted` when the value is none of these.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let flag = try? container.decode(Bool.self) {
            self = .bool(flag)
        } else if let integer = try? container.decode(Int64.self) {
            self = .integer(integer)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let elements = try? container.decode([JSON].self) {
            self = .array(elements)
        } else if let members = try? container.decode([String: JSON].self) {
            self = .object(members)
        } else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "not a JSON value")
            )
        }
    }

    /// Encodes the value as itself; a non-finite number is encoded as `nil`, as
    /// ``serialized()`` writes it.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let flag): try container.encode(flag)
        case .integer(let integer): try container.encode(integer)
        case .number(let number):
            if number.isFinite { try container.encode(number) } else { try container.encodeNil() }
        case .string(let string): try container.encode(string)
        case .array(let elements): try container.encode(elements)
        case .object(let members): try container.encode(members)
        }
    }
}

extension JSON {
    /// The JSON form of an `Encodable` value, as `JSONEncoder` writes it with its default
    /// strategies (a `Date` becomes seconds since 2001, `Data` base64).
    ///
    /// - Throws: the encoder's `EncodingError`, such as for a non-finite `Double`.
    public init<T: Encodable>(encoding value: T) throws {
        let data = try JSONEncoder().encode(value)
        self = try JSON(parsing: data)
    }

    /// Decodes a `Decodable` type from this value with `JSONDecoder`'s default strategies.
    ///
    /// - Throws: the decoder's `DecodingError` when the value does not have the type's shape.
    public func decode<T: Decodable>(_ type: T.Type) throws -> T {
        var bytes: [UInt8] = []
        serialize(into: &bytes)
        return try JSONDecoder().decode(type, from: Data(bytes))
    }
}
