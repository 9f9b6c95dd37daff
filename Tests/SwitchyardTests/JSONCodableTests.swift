import Foundation
import SwitchyardBus
import Testing

struct JSONCodableTests {
    private struct Envelope: Codable, Equatable {
        var type: String
        var payload: JSON
        var count: Int
    }

    /// A struct holding a JSON value goes through JSONEncoder and JSONDecoder unchanged.
    @Test func structWithJSONMember() throws {
        let envelope = Envelope(
            type: "gps/fix",
            payload: ["lat": 51.5, "mode": 3, "device": "/dev/ttyUSB0", "tags": [nil, true], "raw": [:]],
            count: 2
        )
        let data = try JSONEncoder().encode(envelope)
        #expect(try JSONDecoder().decode(Envelope.self, from: data) == envelope)
    }

    /// `init(encoding:)` and `decode(_:)` convert between Codable values and JSON.
    @Test func conveniences() throws {
        let envelope = Envelope(type: "timer/tick", payload: ["n": 1], count: 7)
        let json = try JSON(encoding: envelope)
        #expect(json == ["type": "timer/tick", "payload": ["n": 1], "count": 7])
        #expect(try json.decode(Envelope.self) == envelope)
        #expect(try JSON(encoding: "fragment") == "fragment")
    }

    /// Decoding a value of the wrong shape throws a DecodingError.
    @Test func decodeMismatch() {
        #expect(throws: DecodingError.self) {
            try (["type": 1] as JSON).decode(Envelope.self)
        }
    }

    /// A non-finite number encodes as null instead of failing the whole encoding.
    @Test func nonFiniteEncodesAsNull() throws {
        let data = try JSONEncoder().encode(JSON.array([.number(.infinity)]))
        #expect(String(decoding: data, as: UTF8.self) == "[null]")
    }
}
