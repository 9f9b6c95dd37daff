import SwitchyardTestSupport
import Testing
@testable import Switchyard
@testable import SwitchyardBus
@testable import SwitchyardDoors

/// Random and mutated HTTP requests, from fixed seeds so a failure reproduces: every input
/// gives requests, a failure with a 4xx/5xx status, or a wait for more bytes — never a crash,
/// a hang or memory beyond the limits.
/// The rounds run off the cooperative pool under a CPU-time guard (`cpuBoundRounds`); the
/// real-time limit only ends a hang inside one round, so it allows for a loaded machine.
struct FuzzHTTPRequestTests {
    private static let mutator = ByteMutator(alphabet: Array("GETPOSHADHTP/1.0 :\r\n?&=%-ContentLgh:Tansfr-Encodig;chunkedExpct".utf8) + [0x00, 0x09, 0x7F, 0xFF, 0xC3])

    private static let seeds = [
        "GET /api/state?path=a.b HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: */*\r\n\r\n",
        "POST /api/dispatch HTTP/1.1\r\nHost: h\r\nContent-Type: application/json\r\nContent-Length: 16\r\n\r\n{\"type\":\"a/b\"}\r\n",
        "GET /api/actions HTTP/1.1\r\nHost: h\r\nLast-Event-ID: 42\r\nCookie: switchyard_token=x\r\n\r\n",
        "HEAD /metrics HTTP/1.0\r\nConnection: keep-alive\r\n\r\n",
        "POST /x HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\nabc",
    ]

    private static let limits: HTTPLimits = {
        var limits = HTTPLimits()
        limits.maximumRequestLine = 256
        limits.maximumHeaderBytes = 512
        limits.maximumHeaderCount = 8
        limits.maximumBody = 64
        return limits
    }()

    /// Feeds `input` in pieces of random size; checks every event and the bounds.
    private static func check(_ input: [UInt8], using generator: inout SeededGenerator) {
        var parser = HTTPRequestParser(limits: limits)
        var index = 0
        var events = 0
        while index < input.count {
            let size = Int.random(in: 1...64, using: &generator)
            parser.append(input[index..<min(input.count, index + size)])
            index += size
            while let event = parser.next() {
                events += 1
                switch event {
                case .request(let request):
                    #expect(request.body.count <= limits.maximumBody)
                    #expect(request.headers.count <= limits.maximumHeaderCount)
                    #expect(!request.method.isEmpty)
                case .failure(let failure):
                    #expect((400...599).contains(failure.status))
                    #expect(!failure.message.isEmpty)
                case .continueExpected:
                    break
                }
                #expect(events <= input.count + 1)
            }
            // Held bytes never grow past one request's worth of limits plus one piece.
            #expect(parser.bufferedCount <= limits.maximumRequestLine + limits.maximumHeaderBytes + limits.maximumBody + 64 + 4)
        }
    }

    /// Random bytes never crash the parser or grow it past its limits.
    @Test(.scaledTimeLimit(minutes: 10)) func randomBytes() async {
        var generator = SeededGenerator(seed: 0x477_9001)
        await cpuBoundRounds(5_000) { _ in
            let length = Int.random(in: 0...600, using: &generator)
            let bytes = (0..<length).map { _ in Self.mutator.byte(using: &generator) }
            Self.check(bytes, using: &generator)
        }
    }

    /// Mutated real requests (pipelined several to a stream) give requests or failures only.
    @Test(.scaledTimeLimit(minutes: 10)) func mutatedRequests() async {
        var generator = SeededGenerator(seed: 0x5EED_4777)
        await cpuBoundRounds(10_000) { round in
            var bytes: [UInt8] = []
            for offset in 0..<Int.random(in: 1...3, using: &generator) {
                bytes += Array(Self.seeds[(round + offset) % Self.seeds.count].utf8)
            }
            for _ in 0...Int.random(in: 0...4, using: &generator) {
                Self.mutator.mutate(&bytes, using: &generator)
            }
            Self.check(bytes, using: &generator)
        }
    }
}
