import Testing
@testable import Switchyard
@testable import SwitchyardBus
@testable import SwitchyardDoors

/// The HTTP/1.x request parser as a pure state machine: bytes in, events out, no I/O.
struct HTTPRequestParserTests {
    /// Every event the parser hands out for `input`, fed in one piece.
    static func events(_ input: String, limits: HTTPLimits = HTTPLimits()) -> [HTTPRequestParser.Event] {
        var parser = HTTPRequestParser(limits: limits)
        parser.append(Array(input.utf8))
        var events: [HTTPRequestParser.Event] = []
        while let event = parser.next() { events.append(event) }
        return events
    }

    static func failureStatus(_ events: [HTTPRequestParser.Event]) -> Int? {
        for case .failure(let failure) in events { return failure.status }
        return nil
    }

    /// A plain GET gives one request with its method, target, version and lower-cased headers.
    @Test func simpleGet() throws {
        let events = Self.events("GET /api/state?path=a.b HTTP/1.1\r\nHost: x\r\nX-Thing:  v  \r\n\r\n")
        #expect(events.count == 1)
        guard case .request(let request) = events.first else { Issue.record("no request: \(events)"); return }
        #expect(request.method == "GET")
        #expect(request.path == "/api/state")
        #expect(request.query == ["path": "a.b"])
        #expect(request.minorVersion == 1)
        #expect(request.header("X-THING") == "v")
        #expect(request.keepsAlive)
    }

    /// Malformed requests get the status RFC 9110/9112 names for them, with a message.
    @Test(arguments: [
        ("GET /x HTTP/1.1\r\n\r\n", 400),                                   // no Host
        ("GET /x HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400),             // two Hosts
        ("GET  /x HTTP/1.1\r\nHost: a\r\n\r\n", 400),                       // double space
        ("GET x HTTP/1.1\r\nHost: a\r\n\r\n", 400),                         // not origin form
        ("G(T /x HTTP/1.1\r\nHost: a\r\n\r\n", 400),                        // method not a token
        ("GET /x HTTP/2.0\r\nHost: a\r\n\r\n", 505),                        // other version
        ("GET /x HTTPS/1.1\r\nHost: a\r\n\r\n", 400),                       // not a version
        ("GET /x HTTP/1.1\r\nHost : a\r\n\r\n", 400),                       // space before colon
        ("GET /x HTTP/1.1\r\nHost: a\r\n folded\r\n\r\n", 400),             // obs-fold
        ("GET /x HTTP/1.1\r\nHost: a\r\nnocolon\r\n\r\n", 400),
        ("GET /x HTTP/1.1\r\nHost: a\u{01}\r\n\r\n", 400),                  // control character
        ("POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n", 400),
        ("POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 1x\r\n\r\n", 400),
        ("POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd", 400),
        ("POST /x HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 411),
        ("POST /x HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip\r\n\r\n", 501),
        ("POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 2000000\r\n\r\n", 413),
        ("POST /x HTTP/1.1\r\nHost: a\r\nExpect: 200-ok\r\nContent-Length: 1\r\n\r\nx", 417),
    ])
    func malformedRequests(input: String, status: Int) {
        let events = Self.events(input)
        #expect(Self.failureStatus(events) == status, "\(events)")
        #expect(events.count == 1)
    }

    /// Limits on the request line, the header bytes, the header count and the body, each
    /// reported as soon as the limit is passed (before the rest arrives).
    @Test(arguments: [
        ("GET /" + String(repeating: "a", count: 200), 414),
        ("GET / HTTP/1.1\r\nHost: a\r\nX: " + String(repeating: "b", count: 300), 431),
        ("GET / HTTP/1.1\r\nHost: a\r\n" + String(repeating: "A: b\r\n", count: 11), 431),
    ])
    func limitsBeforeTheEnd(input: String, status: Int) {
        var limits = HTTPLimits()
        limits.maximumRequestLine = 100
        limits.maximumHeaderBytes = 200
        limits.maximumHeaderCount = 10
        #expect(Self.failureStatus(Self.events(input, limits: limits)) == status)
    }

    /// A request line exactly at the limit passes; one byte more fails.
    @Test(arguments: [(100, false), (101, true)])
    func requestLineLimitEdge(length: Int, fails: Bool) {
        var limits = HTTPLimits()
        limits.maximumRequestLine = 100
        let line = "GET /" + String(repeating: "a", count: length - "GET / HTTP/1.1".count) + " HTTP/1.1"
        #expect(line.utf8.count == length)
        let events = Self.events(line + "\r\nHost: a\r\n\r\n", limits: limits)
        #expect((Self.failureStatus(events) == 414) == fails, "\(events)")
    }

    /// Pipelined requests come out one at a time, in order, bodies framed by Content-Length.
    @Test func pipelining() {
        let input = "POST /a HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\nhelloGET /b HTTP/1.1\r\nHost: h\r\n\r\n"
            + "GET /c HTTP/1.0\r\n\r\n"
        let requests = Self.events(input).compactMap { event -> HTTPRequest? in
            if case .request(let request) = event { return request }
            return nil
        }
        #expect(requests.map(\.target) == ["/a", "/b", "/c"])
        #expect(requests.first?.body == Array("hello".utf8))
        #expect(requests.last?.keepsAlive == false)
    }

    /// Fed one byte at a time, the parser gives the same requests as fed at once.
    @Test(arguments: [
        "GET / HTTP/1.1\r\nHost: h\r\n\r\n",
        "POST /d HTTP/1.1\nHost: h\nContent-Length: 3\n\nabcGET /e HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n",
        "\r\n\r\nGET /after-empty-lines HTTP/1.1\r\nHost: h\r\n\r\n",
    ])
    func byteByByte(input: String) {
        var parser = HTTPRequestParser(limits: HTTPLimits())
        var events: [HTTPRequestParser.Event] = []
        for byte in input.utf8 {
            parser.append([byte])
            while let event = parser.next() { events.append(event) }
        }
        #expect(events == Self.events(input))
        #expect(!parser.isInsideRequest)
        #expect(parser.bufferedCount == 0)
    }

    /// `Expect: 100-continue` asks for the interim response before the body arrives, once.
    @Test func expectContinue() {
        var parser = HTTPRequestParser(limits: HTTPLimits())
        parser.append(Array("POST /x HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n".utf8))
        #expect(parser.next() == .continueExpected)
        #expect(parser.next() == nil)
        #expect(parser.isInsideRequest)
        parser.append(Array("ok".utf8))
        guard case .request(let request) = parser.next() else { Issue.record("no request"); return }
        #expect(request.body == Array("ok".utf8))
    }

    /// After a failure the parser hands out nothing more, whatever follows.
    @Test func nothingAfterAFailure() {
        var parser = HTTPRequestParser(limits: HTTPLimits())
        parser.append(Array("BAD\r\nGET / HTTP/1.1\r\nHost: h\r\n\r\n".utf8))
        #expect(Self.failureStatus(parser.next().map { [$0] } ?? []) == 400)
        #expect(parser.next() == nil)
        parser.append(Array("GET / HTTP/1.1\r\nHost: h\r\n\r\n".utf8))
        #expect(parser.next() == nil)
        #expect(parser.hasFailed)
    }

    /// Query parameters are percent-decoded, `+` is a space, and broken encodings are refused.
    @Test(arguments: [
        ("/api/actions?pattern=gps%2F*&x", ["pattern": "gps/*", "x": ""]),
        ("/a?token=a+b%20c", ["token": "a b c"]),
        ("/a?bad=%zz&ok=1", ["ok": "1"]),
        ("/a", [:]),
    ])
    func queries(target: String, expected: [String: String]) {
        #expect(HTTPRequest(method: "GET", target: target).query == expected)
    }
}
