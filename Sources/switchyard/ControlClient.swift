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

    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private var chunk = [UInt8](repeating: 0, count: 64 << 10)

    /// Connects to the bus at `path`.
    /// - Throws: ``Failure`` saying how to start a bus when none listens there.
    init(path: String) throws(Failure) {
        guard let made = try? UnixAddress.make(path) else {
            throw Failure(message: path.isEmpty ? "the socket path is empty" : "the socket path \(path) is too long")
        }
        var address = made.address
        let length = made.length
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(message: "cannot create a socket: \(String(cString: strerror(errno)))") }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, length) }
        }
        guard connected == 0 else {
            let code = errno
            close(descriptor)
            if code == ENOENT || code == ECONNREFUSED {
                throw Failure(message: "no bus is listening on \(path) (start one with `switchyard run CONFIG`, or name its socket with --socket or --config)")
            }
            throw Failure(message: "cannot connect to \(path): \(String(cString: strerror(code)))")
        }
        // Nothing is sent to a socket another user serves: whoever could replace the socket
        // file would otherwise receive the request. The kernel's record of the listener's
        // user cannot be forged, and checking the connected socket leaves no race. As with
        // ssh's files, the client's own user and root are trusted.
        let owner = PeerCredentials.userID(of: descriptor)
        guard let owner, owner == geteuid() || owner == 0 else {
            close(descriptor)
            throw Failure(message: "refusing to talk to \(path): it is served by " + (owner.map { "uid \($0)" } ?? "an unknown user")
                + ", neither your user (uid \(geteuid())) nor root")
        }
    }

    deinit {
        close(descriptor)
    }

    /// Sends one request line.
    func send(_ request: JSON) throws(Failure) {
        var bytes: [UInt8] = []
        request.serialize(into: &bytes)
        bytes.append(UInt8(ascii: "\n"))
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent < 0, errno == EINTR { continue }
            guard sent > 0 else { throw Failure(message: "the bus closed the connection: \(String(cString: strerror(errno)))") }
            offset += sent
        }
    }

    /// The next line as JSON; `nil` when the bus closed the connection. Waits at most
    /// `timeout`, or without limit when it is `nil`.
    func receive(timeout: Duration? = .seconds(30)) throws(Failure) -> JSON? {
        let deadline = timeout.map { ContinuousClock.now.advanced(by: $0) }
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = buffer[..<newline]
                defer { buffer.removeSubrange(...newline) }
                do {
                    // A reply wraps values a door accepted at full depth: read it as the journal is read.
                    return try JSON(parsing: line, maximumDepth: JSONLimits.journalDepth)
                } catch {
                    throw Failure(message: "the bus sent a line that is not JSON: \(error)")
                }
            }
            var interest = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            var wait: Int32 = -1
            if let deadline {
                let remaining = ContinuousClock.now.duration(to: deadline)
                guard remaining > .zero else { throw Failure(message: "the bus did not answer within \(timeout!)") }
                wait = Int32(clamping: remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000 + 1)
            }
            let ready = poll(&interest, 1, wait)
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { continue }
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return nil }
            buffer.append(contentsOf: chunk[..<count])
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
