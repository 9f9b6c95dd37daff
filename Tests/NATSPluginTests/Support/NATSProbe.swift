import Foundation
import SwitchyardBus

@testable import NATSPlugin

/// A bare client connection to the test server, for what the buses do not show: how many
/// messages a stream holds, and when it stored them.
struct NATSProbe {
    let connection: NATSConnection

    /// Connects to `port` on 127.0.0.1 and waits for the handshake; `nil` when it fails.
    static func connect(port: Int, credentials: NATSCredentials? = nil) async throws -> NATSProbe? {
        let connection = try NATSConnection.open(NATSEndpoint(host: "127.0.0.1", port: port), options: NATSConnectOptions(credentials: credentials, name: "probe"))
        guard let events = await connection.next(), case .connected? = events.first else {
            connection.close()
            return nil
        }
        return NATSProbe(connection: connection)
    }

    /// The next events, in order; `nil` once the connection closed.
    func next() async -> [NATSConnectionEvent]? {
        await connection.next()
    }

    /// The JSON reply to a request on `subject`, and the other messages that arrived first.
    func request(_ subject: String, body: String = "") async -> (reply: JSON?, others: [NATSMessage]) {
        let inbox = "_INBOX.probe\(ObjectIdentifier(connection).hashValue & 0xFFFF)"
        var bytes: [UInt8] = []
        NATSCommand.subscribe(subject: inbox + ".*", sid: "1", into: &bytes)
        NATSCommand.publish(subject: subject, replyTo: inbox + ".1", payload: Array(body.utf8), into: &bytes)
        connection.write(bytes)
        var others: [NATSMessage] = []
        while let events = await connection.next() {
            for case .message(let message) in events {
                if message.subject == inbox + ".1" { return (try? JSON(parsing: message.payload), others) }
                others.append(message)
            }
        }
        return (nil, others)
    }

    /// The number of messages `stream` holds; `nil` when the server does not say.
    func messages(in stream: String) async -> Int? {
        await request("$JS.API.STREAM.INFO.\(stream)").reply?["state"]?["messages"]?.intValue
    }

    /// When the server stored message `sequence` of `stream` (its own clock); `nil` when it
    /// does not say.
    func storedTime(in stream: String, sequence: Int) async -> Date? {
        let reply = await request("$JS.API.STREAM.MSG.GET.\(stream)", body: #"{"seq": \#(sequence)}"#).reply
        return reply?["message"]?["time"]?.stringValue.flatMap(Timestamp.parseISO8601)
    }

    func close() {
        connection.close()
    }
}
