import Foundation
import SwitchyardTestSupport
import Testing

/// Random deep, large and odd JSON through the control socket and network-fetch doors of the
/// real bus, which is restarted after each round: whatever it accepted, it reads back.
@Suite(.serialized)
struct DoorFuzzTests {
    /// Random documents from a seeded generator, so a failure names a seed that repeats it.
    struct Generator {
        var random: SeededGenerator

        init(state: UInt64) {
            random = SeededGenerator(seed: state)
        }

        mutating func next() -> UInt64 { random.next() }

        mutating func below(_ bound: Int) -> Int { random.below(bound) }

        /// One document: nested around the door limit, wide, long, or odd; `large: false` keeps
        /// it small enough for a command line (the HTTP server's script).
        mutating func document(large: Bool) -> String {
            switch below(large ? 7 : 6) {
            case 0:
                let depth = 100 + below(600)
                return String(repeating: "[", count: depth) + "0" + String(repeating: "]", count: depth)
            case 1:
                let depth = 100 + below(600)
                return String(repeating: #"{"a":"#, count: depth) + "null" + String(repeating: "}", count: depth)
            case 2:
                let width = 1 + below(large ? 2000 : 100)
                return "[" + (0..<width).map { #"{"k\#($0)":[\#($0),"\#($0)"]}"# }.joined(separator: ",") + "]"
            case 3:
                return ["1e999", "-0", #""\ud800""#, #"{"a":1,"a":2}"#, "[1,]", "\u{FEFF}{}", #""a\u0000b""#, "nul", "{\"x\":"][below(9)]
            case 4:
                let depth = 120 + below(16)
                return String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            case 5:
                return #"{"text":""# + String(repeating: "é", count: below(large ? 4000 : 500)) + #""}"#
            default:
                return #"{"big":""# + String(repeating: "x", count: 500_000 + below(1_200_000)) + #""}"#
            }
        }
    }

    /// Rounds of random documents through both doors, with a restart after each round.
    @Test func randomDocumentsNeverBrickTheBus() async throws {
        let seed = UInt64(ProcessInfo.processInfo.environment["SWITCHYARD_FUZZ_SEED"] ?? "") ?? UInt64.random(in: 0...UInt64.max)
        var generator = Generator(state: seed)
        let rounds = 3
        let perRound = 4
        // The server takes its script on the command line, so its documents stay small.
        let responses = (0..<rounds * perRound).map { _ in generator.document(large: false) }
        let routes = String(decoding: try JSONSerialization.data(withJSONObject: responses.map { ["body": $0] }), as: UTF8.self)
        let server = try await HTTPScriptServer.start(routes: #"{"/fuzz": \#(routes)}"#)
        let directory = try TemporaryDirectory()
        let log = directory.url.appendingPathComponent("actions.jsonl").path
        var bus = try await RunningBus.start(plugins: """
            [{"name": "places", "kind": "network-fetch", "on": "go/fetch", "policy": "queue", "retry": {"attempts": 1},
              "request": {"url": "\(server.url("/fuzz"))"}},
             {"name": "log", "kind": "logger", "format": "json", "actions": "places/*", "to": "\(log)"}]
            """, in: directory)
        var fetched = 0
        for round in 0..<rounds {
            let client = try await bus.connect()
            for _ in 0..<perRound {
                let document = generator.document(large: true)
                let line = #"{"op":"dispatch","action":{"type":"fuzz/doc","payload":\#(document)}}"#
                let reply = try await onThread { try client.request(line) }
                #expect(reply.contains(#""ok""#), "seed \(seed): no reply to a document of \(document.utf8.count) bytes")
                _ = try await onThread { try client.request(#"{"op":"dispatch","action":{"type":"go/fetch"}}"#) }
                fetched += 1
            }
            let finished = { () -> Int in
                let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
                return text.split(separator: "\n").filter { $0.contains(#""type":"places/loaded""#) || $0.contains(#""type":"places/failed""#) }.count
            }
            for _ in 0..<600 where finished() < fetched {
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(finished() == fetched, "seed \(seed), round \(round): \(finished()) of \(fetched) fetches finished")
            #expect(await bus.stop() == 0, "seed \(seed), round \(round): stderr:\n\(bus.process.stderr)")
            bus = try await bus.restart()
        }
        let verify = try await bus.client(["stats"])
        #expect(verify.status == 0)
        #expect(await bus.stop() == 0)
    }
}
