import SwitchyardTestSupport
import Testing
@testable import Switchyard
@testable import SwitchyardBus
@testable import SwitchyardDoors
@testable import SwitchyardIO

/// `GET /api/state?at=`, `/api/why` and `/api/diff` on an embedded loop in front of a real
/// journaled bus: answered from the journal off the loop, bad points refused at once.
struct HTTPHistoryDoorTests {
    private func start() async throws -> EmbeddedDoor<HTTPHost> {
        try await EmbeddedDoor.start { backend, log, loop in
            HTTPServer.embedded(settings: HTTPSettings(), limits: HTTPLimits(settings: HTTPSettings()), backend: backend, log: log, on: loop)
        }
    }

    private func get(_ target: String) -> String {
        "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n"
    }

    /// Sends the GET requests pipelined and returns each response's status and JSON body.
    private func ask(_ targets: [String], on door: EmbeddedDoor<HTTPHost>) async throws -> [(status: Int, body: JSON)] {
        let client = door.connect()
        client.send(targets.map(get).joined())
        var text = ""
        var parsed: [HTTPTestResponse] = []
        await door.until("\(targets.count) responses arrive") {
            text += client.takeText()
            parsed = HTTPTestResponse.parseAll(text)
            return parsed.count >= targets.count
        }
        return try parsed.map { ($0.status, try JSON(parsing: $0.body)) }
    }

    private func add(_ n: Int, cause: UInt64? = nil, to door: EmbeddedDoor<HTTPHost>) async throws -> UInt64 {
        try #require(await door.bus.dispatchReturningID(BusAction(type: "count/add", payload: .integer(Int64(n)), source: "test", cause: cause)))
    }

    /// The state then, why a value is so, and what changed, in the order asked.
    @Test func statesWhyAndDiffFromTheJournal() async throws {
        let door = try await start()
        let origin = try #require(await door.bus.dispatchReturningID(BusAction(type: "door/opened", source: "control")))
        let first = try await add(2, cause: origin, to: door)
        let second = try await add(5, cause: first, to: door)
        let answers = try await ask([
            "/api/state?at=\(first)&path=counter.total",
            "/api/state?at=\(second)",
            "/api/why?path=counter.total&at=\(second)",
            "/api/why?path=counter.total",
            "/api/diff?from=\(first)&to=\(second)",
            "/api/state?path=counter.total",
        ], on: door)
        #expect(answers.map(\.status) == [200, 200, 200, 200, 200, 200])
        #expect(answers[0].body["state"] == 2)
        #expect(answers[0].body["at"]?["id"]?.intValue == Int(first))
        #expect(answers[1].body["state"]?["counter"]?["total"] == 7)
        // What the journal tells of each source then: the door's actions, the last one second.
        let plugins = try #require(answers[1].body["plugins"])
        #expect(plugins["since"] == 0)
        #expect(plugins["sources"]?["test"]?["emitted"] == 2 && plugins["sources"]?["control"]?["emitted"] == 1)
        #expect(plugins["sources"]?["test"]?["last"]?["id"]?.intValue == Int(second))
        #expect(answers[0].body["plugins"]?["sources"]?["test"]?["emitted"] == 1)
        let why = try #require(answers[2].body["why"])
        #expect(why["changedBy"]?["id"]?.intValue == Int(second))
        #expect(why["before"] == 2 && why["after"] == 7 && why["value"] == 7)
        #expect(why["causes"]?.arrayValue?.compactMap { $0["id"]?.intValue } == [Int(first), Int(origin)])
        #expect(answers[3].body["why"]?["changedBy"]?["id"]?.intValue == Int(second))
        #expect(answers[4].body["changes"]?.arrayValue?.compactMap { $0["path"]?.stringValue } == ["counter.count", "counter.last", "counter.total"])
        #expect(answers[5].body["state"] == 7)
        try await door.stop()
    }

    /// Every bad point or missing parameter gets a status and a code; the connection stays.
    @Test func badPointsAreRefused() async throws {
        let door = try await start()
        _ = try await add(1, to: door)
        let answers = try await ask([
            "/api/state?at=yesterday",
            "/api/state?at=0",
            "/api/state?at=99999999999999999999999",
            "/api/state?at=18446744073709551615",
            "/api/state?at=1990-01-01T00:00:00Z",
            "/api/state?at=1&path=counter.nothing",
            "/api/why?path=counter.total&at=-1",
            "/api/why?path=nothing.here",
            "/api/diff?from=1",
            "/api/diff?to=1&from=x",
        ], on: door)
        #expect(answers.map(\.status) == [400, 400, 400, 404, 404, 404, 400, 404, 400, 400])
        #expect(answers.map { $0.body["error"]?["code"]?.stringValue ?? "" }
                == ["invalid-field", "invalid-field", "invalid-field", "not-found", "not-found", "not-found", "invalid-field", "not-found",
                    "invalid-field", "invalid-field"])
        #expect(answers[3].body["error"]?["message"]?.stringValue?.contains("the journal ends at action") == true)
        #expect(answers[8].body["error"]?["message"]?.stringValue?.hasPrefix("\"to\"") == true)
        try await door.stop()
    }
}
