import SwitchyardBus
import SwitchyardTestSupport
import Testing

/// Random and mutated inputs, from fixed seeds so a failure reproduces.
/// The rounds run off the cooperative pool under a CPU-time guard (`cpuBoundRounds`); the
/// real-time limit only ends a hang inside one round, so it allows for a loaded machine.
struct ConfigurationFuzzTests {
    private static let mutator = ByteMutator(alphabet: Array(#"{}[],:"\ 0123456789-+.eEtrufalsn\u{}abcdefABCDEF$"#.utf8) + [0x0A, 0x09, 0x00, 0x1F, 0x7F, 0xC3, 0xA9, 0xF0, 0x9F, 0xFF])

    private static let seeds = [
        #"{"class":"TPV","device":"/dev/ttyUSB0","mode":3,"time":"2024-05-01T12:00:00.000Z","lat":51.477928,"lon":-0.001281,"altHAE":45.2,"speed":0.12,"eph":3.5}"#,
        #"{"op":"dispatch","action":{"type":"location/changed","payload":{"latitude":1e-3,"tags":[true,false,null]}}}"#,
        #"["\u00e9\ud83d\ude80\n\t", 9223372036854775807, -9223372036854775808, 123456789012345678901, 0.5e+10]"#,
        """
        {"bus": {"name": "${BUS:-tracker}", "journal": {"fsync": "interval", "snapshotEvery": 100}},
         "plugins": [{"name": "gps", "kind": "gpsd", "host": "${HOST}", "port": 2947, "restart": {"policy": "always", "window": 30}},
                     {"name": "log", "kind": "logger", "format": "text", "restart": "never"}]}
        """,
    ]

    /// Random byte strings give a value or a positioned error; a value survives a round trip.
    @Test(.scaledTimeLimit(minutes: 10)) func randomBytes() async throws {
        var generator = SeededGenerator(seed: 0xF022)
        try await cpuBoundRounds(20_000) { _ in
            let length = Int.random(in: 0...48, using: &generator)
            let bytes = (0..<length).map { _ in Self.mutator.byte(using: &generator) }
            try check(bytes)
        }
    }

    /// Mutations of realistic documents (gpsd lines, control requests, configs) never crash.
    @Test(.scaledTimeLimit(minutes: 10)) func mutatedDocuments() async throws {
        var generator = SeededGenerator(seed: 0xBAD5EED)
        try await cpuBoundRounds(20_000) { round in
            var bytes = Array(Self.seeds[round % Self.seeds.count].utf8)
            for _ in 0...Int.random(in: 0...4, using: &generator) {
                Self.mutator.mutate(&bytes, using: &generator)
            }
            try check(bytes)
            let text = String(decoding: bytes, as: UTF8.self)
            do {
                let configuration = try BusConfiguration.parse(
                    text, file: "fuzz.json", environment: ["HOST": "h"], knownKinds: ["gpsd", "logger"]
                )
                #expect(configuration.plugins.allSatisfy { PluginDeclaration.isValidName($0.name) })
            } catch let error as ConfigurationError {
                #expect(!error.problems.isEmpty)
                #expect(!error.description.isEmpty)
            }
        }
    }

    /// Random nesting of arrays and objects around the depth limit is accepted or rejected cleanly.
    @Test(.scaledTimeLimit(minutes: 10)) func randomNesting() async {
        var generator = SeededGenerator(seed: 0xDEE9)
        await cpuBoundRounds(200) { _ in
            let depth = Int.random(in: 400...700, using: &generator)
            var opening: [UInt8] = []
            var closing: [UInt8] = []
            for _ in 0..<depth {
                if Bool.random(using: &generator) {
                    opening.append(contentsOf: "[".utf8)
                    closing.append(contentsOf: "]".utf8)
                } else {
                    opening.append(contentsOf: #"{"k":"#.utf8)
                    closing.append(contentsOf: "}".utf8)
                }
            }
            let bytes = opening + Array("1".utf8) + closing.reversed()
            let result = Result { () throws(JSONParseError) in try JSON(parsing: bytes) }
            switch result {
            case .success: #expect(depth <= 512)
            case .failure(let error): #expect(depth > 512 && error.reason.contains("nested deeper"))
            }
        }
    }

    private func check(_ bytes: [UInt8]) throws {
        do {
            let value = try JSON(parsing: bytes)
            #expect(try JSON(parsing: value.serialized()) == value)
        } catch {
            #expect((0...bytes.count).contains(error.offset))
            #expect(error.line >= 1 && error.column >= 1 && !error.reason.isEmpty)
        }
    }

}
