import FoundationEssentials
import Glibc
import SwitchyardBus
import SwitchyardDoors
import SwitchyardIO

/// A blocking client of the control socket, for the short-lived client commands. Run it on a
/// thread of its own (see ``onThread(_:)``), never on the cooperative pool.
final class ControlClient {
    /// Why talking to the bus failed.
    struct Failure: Error {
        var message: String
    }

    private let connection: LineSocketClient

    /// Connects to the bus at `path`.
    /// - Throws: ``Failure`` saying how to start a bus when none listens there.
    init(path: String) throws(Failure) {
        do {
            connection = try LineSocketClient(path: path)
        } catch {
            if error.code == ENOENT || error.code == ECONNREFUSED {
                throw Failure(message: "no bus is listening on \(path) (start one with `switchyard run CONFIG`, or name its socket with --socket or --config)")
            }
            throw Failure(message: error.description)
        }
        // Nothing is sent to a socket another user serves: whoever could replace the socket
        // file would otherwise receive the request. The kernel's record of the listener's
        // user cannot be forged, and checking the connected socket leaves no race. As with
        // ssh's files, the client's own user and root are trusted.
        let owner = PeerCredentials.userID(of: connection.descriptor)
        guard let owner, owner == geteuid() || owner == 0 else {
            throw Failure(message: "refusing to talk to \(path): it is served by " + (owner.map { "uid \($0)" } ?? "an unknown user")
                + ", neither your user (uid \(geteuid())) nor root")
        }
    }

    /// Sends one request line.
    func send(_ request: JSON) throws(Failure) {
        var bytes: [UInt8] = []
        request.serialize(into: &bytes)
        bytes.append(UInt8(ascii: "\n"))
        do {
            try connection.write(bytes)
        } catch {
            throw Failure(message: "the bus closed the connection: \(error.code.map { String(cString: strerror($0)) } ?? error.description)")
        }
    }

    /// The next line as JSON; `nil` when the bus closed the connection. Waits at most
    /// `timeout`, or without limit when it is `nil`.
    func receive(timeout: Duration? = .seconds(30)) throws(Failure) -> JSON? {
        let line: ArraySlice<UInt8>?
        do {
            line = try connection.readLine(timeout: timeout)
        } catch {
            throw Failure(message: error.timedOut ? "the bus did not answer within \(timeout ?? .zero)" : "reading from the bus failed: \(error.description)")
        }
        guard let line else { return nil }
        do {
            // A reply wraps values a door accepted at full depth: read it as the journal is read.
            return try JSON(parsing: line, maximumDepth: JSONLimits.journalDepth)
        } catch {
            throw Failure(message: "the bus sent a line that is not JSON: \(error)")
        }
    }

    /// Sends a request and returns its reply.
    /// - Throws: ``Failure`` when the reply is an error (its code and message) or none comes.
    func request(_ request: JSON) throws(Failure) -> JSON {
        try send(request)
        guard let reply = try receive() else { throw Failure(message: "the bus closed the connection without answering") }
        try Self.check(reply)
        return reply
    }

    /// Throws the error a reply carries, if it carries one.
    static func check(_ reply: JSON) throws(Failure) {
        guard reply["ok"] == false else { return }
        let code = reply["error"]?["code"]?.stringValue ?? "error"
        let message = reply["error"]?["message"]?.stringValue ?? reply.serialized()
        throw Failure(message: "\(code): \(message)")
    }
}
