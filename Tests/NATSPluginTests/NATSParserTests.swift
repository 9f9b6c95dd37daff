import FoundationEssentials
import SwitchyardBus
import Testing

@testable import NATSPlugin

/// Splitting server bytes into operations.
struct NATSParserTests {
    private func parse(_ text: String) throws -> [NATSServerOperation] {
        var parser = NATSParser()
        return try parser.parse(Array(text.utf8))
    }

    /// Each kind of operation is read, whatever the case of its name and the spacing.
    @Test(arguments: [
        ("PING\r\n", NATSServerOperation.ping),
        ("pong\r\n", .pong),
        ("+OK\r\n", .ok),
        ("-ERR 'Authorization Violation'\r\n", .error("Authorization Violation")),
        ("-ERR Stale Connection\r\n", .error("Stale Connection")),
        ("MSG a.b 1 5\r\nhello\r\n", .message(NATSMessage(subject: "a.b", sid: "1", payload: Array("hello".utf8)))),
        ("msg a.b 1  5\r\nhello\r\n", .message(NATSMessage(subject: "a.b", sid: "1", payload: Array("hello".utf8)))),
        ("MSG a.b 7 reply.to 0\r\n\r\n", .message(NATSMessage(subject: "a.b", sid: "7", replyTo: "reply.to"))),
        ("MSG a\t9\t2\r\n\r\n\r\n", .message(NATSMessage(subject: "a", sid: "9", payload: [13, 10]))),
        ("HMSG s 1 $JS.ACK.X 18 20\r\nNATS/1.0\r\nA: b\r\n\r\nhi\r\n",
         .message(NATSMessage(subject: "s", sid: "1", replyTo: "$JS.ACK.X", headers: NATSHeaders([.init("A", "b")]), payload: Array("hi".utf8)))),
        ("HMSG _INBOX.x.f1 1  28 28\r\nNATS/1.0 404 No Messages\r\n\r\n\r\n",
         .message(NATSMessage(subject: "_INBOX.x.f1", sid: "1", headers: NATSHeaders(status: 404, statusDescription: "No Messages")))),
        ("PING\n", .ping),
    ])
    func readsOperation(_ input: String, _ expected: NATSServerOperation) throws {
        #expect(try parse(input) == [expected])
    }

    /// INFO is read into the server's limits; unknown members are ignored.
    @Test func readsInfo() throws {
        let operations = try parse(#"INFO {"server_id":"ID","server_name":"n1","version":"2.9.10","headers":true,"max_payload":4096,"jetstream":true,"extra":[1]} "# + "\r\n")
        #expect(operations == [.info(NATSServerInfo(serverID: "ID", serverName: "n1", version: "2.9.10", maxPayload: 4096, headers: true, jetStream: true))])
    }

    /// Operations cut at every possible byte arrive whole and in order.
    @Test func survivesEveryCut() throws {
        let stream = "PING\r\nMSG x 1 3\r\nabc\r\nHMSG y 2 r 12 14\r\nNATS/1.0\r\n\r\nok\r\n-ERR 'x'\r\n"
        let whole = try parse(stream)
        #expect(whole.count == 4)
        let bytes = Array(stream.utf8)
        for cut in 1..<bytes.count {
            var parser = NATSParser()
            let first = try parser.parse(bytes[..<cut])
            let second = try parser.parse(bytes[cut...])
            #expect(first + second == whole, "cut at \(cut)")
            #expect(parser.bufferedCount == 0)
        }
        var parser = NATSParser()
        var byByte: [NATSServerOperation] = []
        for byte in bytes { byByte += try parser.parse([byte]) }
        #expect(byByte == whole)
    }

    /// Garbage is a protocol error that says what was wrong.
    @Test(arguments: [
        ("HELLO\r\n", "unknown operation from the server: \"HELLO\""),
        ("MSG a 1\r\n", "malformed MSG from the server: \"MSG a 1\""),
        ("MSG a 1 x\r\n", "malformed MSG from the server: \"MSG a 1 x\""),
        ("MSG a 1 -3\r\n", "malformed MSG from the server: \"MSG a 1 -3\""),
        ("HMSG a 1 9 5\r\n", "malformed HMSG from the server: \"HMSG a 1 9 5\""),
        ("MSG a 1 2\r\nabcd\r\n", "the payload of a message on \"a\" is not followed by CRLF"),
        ("INFO nope\r\n", "malformed INFO from the server: line 1, column 1: expected a JSON value"),
        ("INFO [1]\r\n", "malformed INFO from the server: expected a JSON object, got an array"),
    ])
    func rejectsGarbage(_ input: String, _ message: String) {
        #expect {
            try parse(input)
        } throws: { error in
            (error as? NATSProtocolError)?.description.hasPrefix(message.components(separatedBy: ": line").first ?? message) == true
        }
    }

    /// A control line or message beyond the limits is an error, not a growing buffer.
    @Test func boundsMemory() throws {
        var parser = NATSParser(maximumControlLine: 32, maximumMessageSize: 8)
        #expect(throws: NATSProtocolError.controlLineTooLong(limit: 32)) {
            try parser.parse(Array(repeating: UInt8(ascii: "x"), count: 40))
        }
        var small = NATSParser(maximumControlLine: 32, maximumMessageSize: 8)
        #expect(throws: NATSProtocolError.messageTooLarge(size: 9, limit: 8)) {
            try small.parse(Array("MSG a 1 9\r\n".utf8))
        }
    }

    /// A header block the parser cannot read is kept as a problem on the message, so that
    /// one bad publisher does not end the connection.
    @Test func badHeadersStayOnTheMessage() throws {
        let operations = try parse("HMSG a.b 1 6 6\r\nHTTP\r\n\r\n")
        guard case .message(let message)? = operations.first else {
            Issue.record("expected a message, got \(operations)")
            return
        }
        #expect(message.headers == nil)
        #expect(message.headerProblem?.description == "malformed message headers: the block does not start with NATS/1.0")
    }
}

/// Header blocks and client commands.
struct NATSHeadersTests {
    /// Fields, a status and its description are read; names are found exactly, then ignoring case.
    @Test func readsHeaders() throws {
        let headers = try NATSHeaders(parsing: Array("NATS/1.0 408 Request Timeout\r\nNats-Pending-Messages: 9\r\nX:  spaced value \r\n\r\n".utf8)[...])
        #expect(headers.status == 408)
        #expect(headers.statusDescription == "Request Timeout")
        #expect(headers["Nats-Pending-Messages"] == "9")
        #expect(headers["nats-pending-messages"] == "9")
        #expect(headers["X"] == "spaced value")
        #expect(headers["Missing"] == nil)
    }

    /// Encoding then parsing gives the same headers; line breaks in values cannot start a field.
    @Test func roundTrips() throws {
        let headers = NATSHeaders([.init("Nats-Msg-Id", "bus-7"), .init("Switchyard-Origin", "tracker\r\nEvil: 1")])
        let parsed = try NATSHeaders(parsing: headers.encoded[...])
        #expect(parsed.fields.count == 2)
        #expect(parsed["Nats-Msg-Id"] == "bus-7")
        #expect(parsed["Evil"] == nil)
        #expect(String(decoding: NATSHeaders(status: 503).encoded, as: UTF8.self) == "NATS/1.0 503\r\n\r\n")
    }

    /// Bad header blocks are errors that say why.
    @Test(arguments: [
        ("NATS/2.0\r\n\r\n", "malformed message headers: the block does not start with NATS/1.0"),
        ("NATS/1.0 abc\r\n\r\n", "malformed message headers: the status \"abc\" is not a three-digit code"),
        ("NATS/1.0\r\nno colon\r\n\r\n", "malformed message headers: the line \"no colon\" has no colon"),
        ("NATS/1.0\r\n: value\r\n\r\n", "malformed message headers: a field has an empty name"),
    ])
    func rejectsBadHeaders(_ input: String, _ message: String) {
        #expect(throws: NATSProtocolError.malformedHeaders(String(message.dropFirst("malformed message headers: ".count)))) {
            try NATSHeaders(parsing: Array(input.utf8)[...])
        }
    }

    /// PUB, HPUB, SUB and CONNECT are written as the protocol wants them.
    @Test func encodesCommands() throws {
        var bytes: [UInt8] = []
        NATSCommand.publish(subject: "a.b", payload: Array("hi".utf8), into: &bytes)
        NATSCommand.publish(subject: "a.b", replyTo: "_INBOX.x.1", headers: Array("NATS/1.0\r\n\r\n".utf8), payload: Array("{}".utf8), into: &bytes)
        NATSCommand.publish(subject: "$JS.ACK.x", payload: [], into: &bytes)
        NATSCommand.subscribe(subject: "switchyard.>", sid: "2", into: &bytes)
        NATSCommand.unsubscribe(sid: "2", into: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self)
            == "PUB a.b 2\r\nhi\r\nHPUB a.b _INBOX.x.1 12 14\r\nNATS/1.0\r\n\r\n{}\r\nPUB $JS.ACK.x 0\r\n\r\nSUB switchyard.> 2\r\nUNSUB 2\r\n")
        var connect: [UInt8] = []
        NATSCommand.connect(NATSConnectOptions(credentials: .user("alice", password: "s3cret"), name: "switchyard:a"), into: &connect)
        let text = String(decoding: connect, as: UTF8.self)
        #expect(text.hasPrefix("CONNECT {") && text.hasSuffix("}\r\n"))
        let json = try JSON(parsing: String(text.dropFirst("CONNECT ".count).dropLast(1)))
        #expect(json["echo"] == false && json["headers"] == true && json["no_responders"] == true && json["verbose"] == false)
        #expect(json["user"] == "alice" && json["pass"] == "s3cret" && json["auth_token"] == nil)
        #expect(NATSConnectOptions(credentials: .token("t")).json["auth_token"] == "t")
        #expect(NATSCredentials.user("alice", password: "s3cret").description == "user \"alice\"")
        #expect(NATSCredentials.token("t0ken").description == "a token")
    }
}

/// Strings reused while they repeat.
struct NATSParserReuseTests {
    /// Messages that repeat their subject, sid and most headers but differ in one value each
    /// are read with their own values: a reused string is never a stale one.
    @Test func repeatedLinesKeepTheirOwnValues() throws {
        var stream = ""
        for (index, subject) in ["switchyard.a.b", "switchyard.a.b", "switchyard.a.c", "switchyard.a.b"].enumerated() {
            let headers = "NATS/1.0\r\nNats-Msg-Id: bus-\(index)\r\nSwitchyard-Origin: bus\r\n\r\n"
            stream += "HMSG \(subject) \(index % 2 + 2) \(headers.utf8.count) \(headers.utf8.count + 2)\r\n\(headers){}\r\n"
        }
        var parser = NATSParser()
        let messages = try parser.parse(Array(stream.utf8)).compactMap { operation -> NATSMessage? in
            if case .message(let message) = operation { return message }
            return nil
        }
        #expect(messages.map(\.subject) == ["switchyard.a.b", "switchyard.a.b", "switchyard.a.c", "switchyard.a.b"])
        #expect(messages.map(\.sid) == ["2", "3", "2", "3"])
        #expect(messages.map { $0.headers?["Nats-Msg-Id"] } == ["bus-0", "bus-1", "bus-2", "bus-3"])
        #expect(messages.allSatisfy { $0.headers?["Switchyard-Origin"] == "bus" && $0.payload == Array("{}".utf8) })
    }

    /// The header block built as bytes for a publish is the one the headers type encodes,
    /// line breaks in values included.
    @Test func headerBlockMatchesEncodedHeaders() {
        let time = Date(timeIntervalSince1970: 1_800_000_000.25)
        let block = OutgoingMessage.headerBlock(id: 1_234_567, origin: "bus-a", time: time, source: "evil\r\nX: 1")
        let encoded = NATSHeaders([
            .init("Nats-Msg-Id", "bus-a-1234567"), .init("Switchyard-Origin", "bus-a"), .init("Switchyard-Time", "2027-01-15T08:00:00.250Z"),
            .init("Switchyard-Source", "evil\r\nX: 1"),
        ]).encoded
        #expect(block == encoded)
        #expect(OutgoingMessage.headerBlock(id: 0, origin: "o", time: time, source: "s") == NATSHeaders([
            .init("Nats-Msg-Id", "o-0"), .init("Switchyard-Origin", "o"), .init("Switchyard-Time", Timestamp.iso8601(time)), .init("Switchyard-Source", "s"),
        ]).encoded)
    }
}
