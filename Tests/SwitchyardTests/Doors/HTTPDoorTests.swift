import SwitchyardTestSupport
import Testing
@testable import Switchyard
@testable import SwitchyardBus
@testable import SwitchyardDoors
@testable import SwitchyardIO

/// The HTTP server's protocol on an embedded loop in front of a real bus: no socket, a manual
/// clock for the request and idle timeouts, the socket's room under the test's control.
struct HTTPDoorTests {
    private func start(_ settings: HTTPSettings = HTTPSettings()) async throws -> EmbeddedDoor<HTTPHost> {
        try await EmbeddedDoor.start { backend, log, loop in
            HTTPServer.embedded(settings: settings, limits: HTTPLimits(settings: settings), backend: backend, log: log, on: loop)
        }
    }

    private func post(_ body: String, type: String = "application/json", close: Bool = false) -> String {
        "POST /api/dispatch HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nContent-Type: \(type)\r\nContent-Length: \(body.utf8.count)\r\n"
            + (close ? "Connection: close\r\n" : "") + "\r\n" + body
    }

    private let get = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n"

    /// Runs turns until `count` whole responses (by their status lines and lengths) arrived.
    private func responses(_ count: Int, from client: EmbeddedClient, on door: EmbeddedDoor<HTTPHost>) async -> [HTTPTestResponse] {
        var text = ""
        var parsed: [HTTPTestResponse] = []
        await door.until("\(count) responses arrive") {
            text += client.takeText()
            parsed = HTTPTestResponse.parseAll(text)
            return parsed.count >= count
        }
        return parsed
    }

    /// Requests pipelined in one write on a kept-alive connection are answered in order, each
    /// dispatch before the request after it.
    @Test func pipelinedRequestsAreAnsweredInOrder() async throws {
        let door = try await start()
        let client = door.connect()
        client.send(post(#"{"type":"count/add","payload":1}"#) + get + post(#"{"type":"count/add","payload":2}"#)
                    + "GET /api/state?path=counter.total HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n")
        let answers = await responses(4, from: client, on: door)
        #expect(answers.map(\.status) == [200, 200, 200, 200])
        let first = try JSON(parsing: answers[0].body)["id"]?.intValue ?? 0
        let second = try JSON(parsing: answers[2].body)["id"]?.intValue ?? 0
        #expect(first > 0 && second > first)
        #expect(try JSON(parsing: answers[3].body) == ["ok": true, "state": 3])
        #expect(!client.channel.isClosed)
        #expect(door.host.server.statistics.responses[200] == 4)
        try await door.stop()
    }

    /// Bad dispatches are refused with a status and a code, the connection kept; a request
    /// that cannot be parsed gets 400 and the connection closes.
    @Test func refusalsAndAMalformedRequest() async throws {
        let door = try await start()
        let client = door.connect()
        client.send(post(#"{"type":"door/open""#) + post(#"{"type":"Not A Type"}"#) + post(#"{"type":"a/b"}"#, type: "text/plain"))
        let refused = await responses(3, from: client, on: door)
        #expect(refused.map(\.status) == [400, 400, 415])
        #expect(refused.map { (try? JSON(parsing: $0.body))?["error"]?["code"]?.stringValue ?? "" }
                == ["malformed-json", "invalid-action", "unsupported-media-type"])
        client.send("NOT HTTP AT ALL\r\n\r\n")
        #expect(await responses(1, from: client, on: door).first?.status == 400)
        await door.until("the connection closes") { client.channel.isClosed }
        try await door.stop()
    }

    /// A client that asks to continue gets `100 Continue` before it sends the body.
    @Test func expectContinue() async throws {
        let door = try await start()
        let client = door.connect()
        let body = #"{"type":"count/add","payload":7}"#
        client.send("POST /api/dispatch HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nExpect: 100-continue\r\n\r\n")
        await door.until("100 Continue arrives") { client.lineCount >= 2 }
        #expect(client.takeText() == "HTTP/1.1 100 Continue\r\n\r\n")
        client.send(body)
        #expect(await responses(1, from: client, on: door).first?.status == 200)
        try await door.stop()
    }

    /// A request still incomplete at the request timeout gets 408 and is closed; a kept-alive
    /// connection waiting for its next request is closed at the idle timeout — on the manual
    /// clock, neither early nor late.
    @Test func requestAndIdleTimeouts() async throws {
        let door = try await start(HTTPSettings(requestTimeout: .seconds(10), idleTimeout: .seconds(5)))
        let slow = door.connect()
        let idle = door.connect()
        slow.send("GET /healthz HTTP/1.1\r\nHost: 127.0")
        idle.send(get)
        #expect(await responses(1, from: idle, on: door).first?.status == 200)
        door.loop.advance(by: .milliseconds(4_999))
        #expect(!idle.channel.isClosed)
        door.loop.advance(by: .milliseconds(1))
        #expect(idle.channel.isClosed)
        #expect(slow.takeText().isEmpty)
        door.loop.advance(by: .milliseconds(4_999))
        #expect(!slow.channel.isClosed)
        door.loop.advance(by: .milliseconds(1))
        #expect(await responses(1, from: slow, on: door).first?.status == 408)
        await door.until("the slow connection closes") { slow.channel.isClosed }
        #expect(door.host.server.statistics.timedOut == 1)
        try await door.stop()
    }

    /// A response larger than the socket takes at once arrives whole as the client reads.
    @Test func aLargeResponseThroughAFullSocket() async throws {
        let door = try await start()
        let client = door.connect()
        client.channel.writeCapacity = 0
        client.send("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n")
        var text = ""
        await door.until("the whole response arrives") {
            client.channel.makeRoom(100)
            text += client.takeText()
            return !HTTPTestResponse.parseAll(text).isEmpty
        }
        let response = try #require(HTTPTestResponse.parseAll(text).first)
        #expect(response.status == 200)
        #expect(response.body.contains("switchyard_"))
        try await door.stop()
    }

    /// `/api/actions` opens an event stream and sends each matching action as an event with
    /// its sequence number as `id:`.
    @Test func eventStream() async throws {
        let door = try await start()
        let stream = door.connect()
        stream.send("GET /api/actions?pattern=count/* HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n")
        var text = ""
        await door.until("the stream opens") {
            text += stream.takeText()
            return text.contains(": switchyard event stream\n\n")
        }
        #expect(text.hasPrefix("HTTP/1.1 200"))
        #expect(text.contains("Content-Type: text/event-stream"))
        await door.bus.dispatch(BusAction(type: "other/thing", source: "test"))
        await door.bus.dispatch(BusAction(type: "count/add", payload: 3, source: "test"))
        text = ""
        await door.until("the event arrives") {
            text += stream.takeText()
            return text.hasSuffix("\n\n")
        }
        #expect(text.hasPrefix("id: "))
        #expect(text.contains(#""type":"count/add""#))
        #expect(!text.contains("other/thing"))
        #expect(door.host.server.statistics.streams == 1)
        try await door.stop()
    }
}

/// One HTTP/1.1 response as a test reads it (a status, its headers, a `Content-Length` body).
struct HTTPTestResponse {
    var status: Int
    var headers: [String: String]
    var body: String

    /// The whole responses at the start of `text`, in order; an incomplete last one is left out.
    static func parseAll(_ text: String) -> [HTTPTestResponse] {
        var responses: [HTTPTestResponse] = []
        var rest = Substring(text)
        while let end = rest.range(of: "\r\n\r\n") {
            let lines = rest[..<end.lowerBound].split(separator: "\r\n", omittingEmptySubsequences: false)
            guard let statusLine = lines.first, let status = Int(statusLine.split(separator: " ").dropFirst().first ?? "") else { break }
            var headers: [String: String] = [:]
            for line in lines.dropFirst() {
                guard let colon = line.firstIndex(of: ":") else { continue }
                headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: " ")
            }
            let length = Int(headers["content-length"] ?? "0") ?? 0
            let bodyBytes = rest[end.upperBound...].utf8
            guard bodyBytes.count >= length else { break }
            let bodyEnd = bodyBytes.index(bodyBytes.startIndex, offsetBy: length)
            responses.append(HTTPTestResponse(status: status, headers: headers, body: String(rest[end.upperBound..<bodyEnd])))
            rest = rest[bodyEnd...]
        }
        return responses
    }
}

private extension Substring {
    func trimmingCharacters(in set: Character) -> String {
        String(drop { $0 == set }.reversed().drop { $0 == set }.reversed())
    }
}
