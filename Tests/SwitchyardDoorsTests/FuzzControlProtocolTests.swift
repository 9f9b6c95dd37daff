import SwitchyardTestSupport
import Testing
@testable import Switchyard
@testable import SwitchyardBus
@testable import SwitchyardDoors
import SwitchyardIO

/// Random and mutated control-protocol input, from fixed seeds so a failure reproduces: every
/// input gives a request or an error reply, never a crash or a hang.
/// The rounds run off the cooperative pool under a CPU-time guard (`cpuBoundRounds`); the
/// real-time limit only ends a hang inside one round, so it allows for a loaded machine.
///
/// (The gpsd line parser lives on its own branch; its fuzz test belongs there.)
struct FuzzControlProtocolTests {
    private static let mutator = ByteMutator(alphabet: Array(#"{}[],:"\ 0123456789-+.eEtrufalsnopdichwyv/*\u{}"#.utf8) + [0x0A, 0x0D, 0x09, 0x00, 0x1F, 0x7F, 0xC3, 0xA9, 0xFF])

    private static let seeds = [
        #"{"op":"dispatch","action":{"type":"location/changed","payload":{"latitude":51.5,"tags":[true,null]},"cause":4}}"#,
        #"{"op":"state","path":"places.value.0.name"}"#,
        #"{"op":"watch","actions":"gps/*","state":"location"}"#,
        #"{"op":"stats"}"#,
        #"{"op":"dispatch","action":{"type":"a/b","source":"fetch","id":7,"time":"2026-11-22T09:30:00.125Z"}}"#,
    ]

    /// Random bytes parse to a request or to an error with a code and a message.
    @Test(.scaledTimeLimit(minutes: 10)) func randomBytes() async {
        var generator = SeededGenerator(seed: 0xC0_2701)
        await cpuBoundRounds(30_000) { _ in
            let length = Int.random(in: 0...64, using: &generator)
            let bytes = (0..<length).map { _ in Self.mutator.byte(using: &generator) }
            check(bytes)
        }
    }

    /// Mutated requests parse to an error, or to a request that survives a JSON round trip.
    @Test(.scaledTimeLimit(minutes: 10)) func mutatedRequests() async {
        var generator = SeededGenerator(seed: 0x5EED_0C71)
        await cpuBoundRounds(30_000) { round in
            var bytes = Array(Self.seeds[round % Self.seeds.count].utf8)
            for _ in 0...Int.random(in: 0...3, using: &generator) {
                Self.mutator.mutate(&bytes, using: &generator)
            }
            check(bytes)
        }
    }

    /// A session fed random pieces stays bounded, gives one step per line, and finishes.
    @Test(.scaledTimeLimit(minutes: 10)) func sessionsUnderRandomInput() async {
        var generator = SeededGenerator(seed: 0x5E55_1011)
        await cpuBoundRounds(300) { _ in
            var input: [UInt8] = []
            for _ in 0..<Int.random(in: 1...40, using: &generator) {
                if Bool.random(using: &generator) {
                    input += Array(Self.seeds.randomElement(using: &generator).unsafelyUnwrapped.utf8) + [10]
                } else {
                    input += (0..<Int.random(in: 0...200, using: &generator)).map { _ in Self.mutator.byte(using: &generator) }
                }
            }
            var session = ControlSession(maximumLineLength: 64)
            var inFlight = 0
            var steps = 0
            func drain(_ session: inout ControlSession) {
                while let step = session.nextStep() {
                    steps += 1
                    if case .dispatch = step { inFlight += 1 }
                }
            }
            var ranges: [Range<Int>] = []
            for length in randomPieces(input.count, using: &generator) {
                let start = ranges.last?.upperBound ?? 0
                ranges.append(start..<start + length)
            }
            for piece in ranges {
                input[piece].withUnsafeBytes { session.receive($0) }
                #expect(session.bufferedCount <= ControlLimits.readAhead + piece.count)
                drain(&session)
                while inFlight > 0, Bool.random(using: &generator) {
                    session.completed()
                    inFlight -= 1
                    drain(&session)
                }
            }
            session.receiveEnd()
            drain(&session)
            while inFlight > 0 {
                session.completed()
                inFlight -= 1
                drain(&session)
            }
            #expect(session.isFinished)
            #expect(steps == frame(input, pieces: [input.count], maximumLength: 64).count)
        }
    }

    /// Splitting a stream at random points never changes the lines it frames.
    @Test(.scaledTimeLimit(minutes: 10)) func framingIgnoresChunkBoundaries() async {
        var generator = SeededGenerator(seed: 0xF2A3E)
        await cpuBoundRounds(500) { _ in
            let input = (0..<Int.random(in: 0...2000, using: &generator)).map { _ in
                Bool.random(using: &generator) ? UInt8(10) : Self.mutator.byte(using: &generator)
            }
            #expect(frame(input, pieces: [input.count]) == frame(input, pieces: randomPieces(input.count, using: &generator)))
        }
    }

    private func frame(_ input: [UInt8], pieces: [Int], maximumLength: Int = 40) -> [LineReader.Piece] {
        var reader = LineReader(maximumLength: maximumLength)
        var result: [LineReader.Piece] = []
        var offset = 0
        for length in pieces {
            input[offset..<offset + length].withUnsafeBytes { reader.append($0) }
            offset += length
            while let piece = reader.next() { result.append(piece) }
        }
        reader.end()
        while let piece = reader.next() { result.append(piece) }
        return result
    }

    private func randomPieces(_ total: Int, using generator: inout SeededGenerator) -> [Int] {
        var pieces: [Int] = []
        var left = total
        while left > 0 {
            let piece = Int.random(in: 1...min(left, 97), using: &generator)
            pieces.append(piece)
            left -= piece
        }
        return pieces
    }

    private func check(_ bytes: [UInt8]) {
        do {
            let request = try ControlRequest(line: bytes)
            #expect(try ControlRequest(json: request.json) == request)
        } catch {
            #expect(!error.code.isEmpty && !error.message.isEmpty)
            #expect(ControlReply.error(error).last == 10)
        }
    }

}
