import Foundation
@testable import GPSDPlugin
import SwitchyardTestSupport
import Testing

/// Random and mutated gpsd output, from fixed seeds so a failure reproduces: every line gives a
/// classification (a report, an ignored class, not JSON, or malformed), never a crash or a hang,
/// and framing holds its memory bound whatever the stream.
struct FuzzGPSDLineTests {
    private static let mutator = ByteMutator(alphabet: Array(#"{}[],:"\ 0123456789-+.eETPVSKYDEVICEclassmodelatlonrue/\u{}"#.utf8) + [0x0A, 0x0D, 0x09, 0x00, 0x1F, 0x7F, 0xC3, 0xA9, 0xFF, 0x24, 0x2A])

    /// Real gpsd output: the first lines of the recorded receiver captures' expected output,
    /// plus the classes the plugin reads.
    private static let seeds: [String] = {
        var lines = [
            #"{"class":"VERSION","release":"3.25","rev":"3.25","proto_major":3,"proto_minor":15}"#,
            #"{"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/ttyUSB0","driver":"NMEA0183","activated":"2024-05-01T12:00:00.000Z","native":0,"bps":4800}]}"#,
            #"{"class":"WATCH","enable":true,"json":true,"nmea":false,"raw":0,"scaled":false,"timing":false,"split24":false,"pps":false}"#,
            #"{"class":"TPV","device":"/dev/ttyUSB0","mode":3,"time":"2024-05-01T12:00:00.000Z","ept":0.005,"lat":51.477928,"lon":-0.001281,"altHAE":45.2,"altMSL":0.3,"epx":3.1,"epy":4.2,"epv":9.8,"track":12.5,"speed":0.12,"climb":0.0,"eps":0.2}"#,
            #"{"class":"ERROR","message":"Unrecognized request '?FOO'"}"#,
            "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47",
        ]
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/gpsd-logs")
        for name in ["bu353s4.log.chk", "nl2008u.log.chk"] {
            let text = (try? String(contentsOf: fixtures.appendingPathComponent(name), encoding: .utf8)) ?? ""
            lines += text.split(separator: "\n").prefix(40).map(String.init).filter { $0.hasPrefix("{") }
        }
        return lines
    }()

    /// The recorded captures are there to seed the mutations.
    @Test func seedsIncludeRecordedOutput() {
        #expect(Self.seeds.count > 20)
        #expect(Self.seeds.contains { $0.contains(#""class":"SKY""#) })
    }

    /// Random bytes are classified without a crash; text not starting with `{` is never JSON.
    @Test(.scaledTimeLimit(minutes: 1)) func randomBytes() {
        var generator = SeededGenerator(seed: 0x6B5D)
        for _ in 0..<30_000 {
            let bytes = (0..<Int.random(in: 0...80, using: &generator)).map { _ in Self.mutator.byte(using: &generator) }
            let line = GPSDLine(parsing: bytes)
            if bytes.first(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) != UInt8(ascii: "{") {
                #expect(line == .notJSON)
            }
        }
    }

    /// Mutations of real reports are classified; a `malformed` line always says why.
    @Test(.scaledTimeLimit(minutes: 1)) func mutatedReports() {
        var generator = SeededGenerator(seed: 0x6B5D_5EED)
        var classified: [String: Int] = [:]
        for round in 0..<10_000 {
            var bytes = Array(Self.seeds[round % Self.seeds.count].utf8)
            for _ in 0...Int.random(in: 0...3, using: &generator) { Self.mutator.mutate(&bytes, using: &generator) }
            switch GPSDLine(parsing: bytes) {
            case .report: classified["report", default: 0] += 1
            case .ignored: classified["ignored", default: 0] += 1
            case .notJSON: classified["notJSON", default: 0] += 1
            case .malformed(let reason):
                classified["malformed", default: 0] += 1
                #expect(!reason.isEmpty)
            }
        }
        // The mutations reach every outcome, so the test exercises more than the error path.
        #expect(classified.keys.sorted() == ["ignored", "malformed", "notJSON", "report"])
    }

    /// Framing is bounded and does not depend on where the stream is cut.
    @Test(.scaledTimeLimit(minutes: 1)) func framingIsBoundedAndIgnoresChunks() {
        var generator = SeededGenerator(seed: 0xF4A3)
        for _ in 0..<400 {
            var stream: [UInt8] = []
            for _ in 0..<Int.random(in: 1...30, using: &generator) {
                if Bool.random(using: &generator) {
                    stream += Array(Self.seeds.randomElement(using: &generator).unsafelyUnwrapped.utf8) + [0x0D, 0x0A]
                } else {
                    stream += (0..<Int.random(in: 0...600, using: &generator)).map { _ in Self.mutator.byte(using: &generator) }
                }
            }
            var whole = LineFramer(maximumLineLength: 512)
            var expected: [LineFramer.Output] = []
            whole.append(stream) { expected.append($0) }
            var pieces = LineFramer(maximumLineLength: 512)
            var framed: [LineFramer.Output] = []
            var offset = 0
            while offset < stream.count {
                let end = min(stream.count, offset + Int.random(in: 1...700, using: &generator))
                pieces.append(stream[offset..<end]) { framed.append($0) }
                #expect(pieces.pendingByteCount <= 513)
                offset = end
            }
            #expect(framed == expected)
            for case .line(let line) in framed { _ = GPSDLine(parsing: line) }
        }
    }

}

