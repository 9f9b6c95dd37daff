import Foundation
import Glibc
import SwitchyardTestSupport
import Synchronization

/// A blocking HTTP/1.1 client over a raw TCP socket to 127.0.0.1, so tests control every byte
/// (malformed requests, pipelining, half-sent headers). Call it from a thread of its own
/// (``onThread(background:_:)``).
final class HTTPTestClient: Sendable {
    /// One response as read off the socket.
    struct Response: Sendable {
        var status: Int
        /// Header names lower-cased.
        var headers: [String: String]
        var body: [UInt8]
        var text: String { String(decoding: body, as: UTF8.self) }
        var json: [String: Any] { object(text) }
    }

    let descriptor: Int32
    private let buffer = Mutex<[UInt8]>([])

    /// Connects to 127.0.0.1:`port`.
    init(port: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        let connected = withSocketAddress(loopbackAddress(port: port)) { connect(descriptor, $0, $1) }
        guard connected == 0 else {
            close(descriptor)
            throw ControlE2EFailure(description: "cannot connect to 127.0.0.1:\(port): \(String(cString: strerror(errno)))")
        }
    }

    deinit {
        close(descriptor)
    }

    /// Writes all of `text`; `false` when the server closed the connection.
    @discardableResult
    func send(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent < 0, errno == EINTR { continue }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }

    /// Reads more bytes into the buffer; `false` at the end of the stream or after `deadline`.
    private func fill(until deadline: TestDeadline) -> Bool {
        var interest = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while !deadline.hasPassed {
            guard poll(&interest, 1, max(1, deadline.remainingMilliseconds())) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            buffer.withLock { $0.append(contentsOf: chunk[..<count]) }
            return true
        }
        return false
    }

    /// Reads until `marker` arrives and returns everything up to and including it (taken off
    /// the buffer); `nil` at the end of the stream or after `timeout`.
    func read(through marker: String, timeout: Duration = .seconds(30)) -> String? {
        let needle = Array(marker.utf8)
        let deadline = TestDeadline(after: timeout)
        while true {
            let found: [UInt8]? = buffer.withLock { bytes in
                guard bytes.count >= needle.count else { return nil }
                for start in 0...(bytes.count - needle.count) where bytes[start..<start + needle.count].elementsEqual(needle) {
                    let taken = Array(bytes[..<(start + needle.count)])
                    bytes.removeFirst(start + needle.count)
                    return taken
                }
                return nil
            }
            if let found { return String(decoding: found, as: UTF8.self) }
            guard fill(until: deadline) else { return nil }
        }
    }

    /// Reads one response: the head, then a `Content-Length` body (or, without one, the rest
    /// of the stream). `nil` when the stream ends before it or after `timeout`.
    func readResponse(timeout: Duration = .seconds(30), headOnly: Bool = false) -> Response? {
        let deadline = TestDeadline(after: timeout)
        guard let head = read(through: "\r\n\r\n", timeout: timeout) else { return nil }
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { return nil }
        var headers: [String: String] = [:]
        for line in lines where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        if headOnly { return Response(status: status, headers: headers, body: []) }
        if let length = headers["content-length"].flatMap(Int.init) {
            while buffer.withLock({ $0.count }) < length {
                guard fill(until: deadline) else { return nil }
            }
            let body = buffer.withLock { bytes in
                defer { bytes.removeFirst(length) }
                return Array(bytes[..<length])
            }
            return Response(status: status, headers: headers, body: body)
        }
        while fill(until: deadline) {}
        return Response(status: status, headers: headers, body: buffer.withLock { bytes in
            defer { bytes = [] }
            return bytes
        })
    }

    /// Whether the server closes the connection within `timeout` (bytes before the end are
    /// read and dropped).
    func closes(within timeout: Duration = .seconds(30)) -> Bool {
        let deadline = TestDeadline(after: timeout)
        var interest = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while !deadline.hasPassed {
            guard poll(&interest, 1, max(1, deadline.remainingMilliseconds())) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count == 0 || (count < 0 && errno != EINTR) { return true }
        }
        return false
    }

    /// One request on a fresh connection: `METHOD TARGET` with `headers` (`Host: 127.0.0.1`
    /// unless they have a `Host`) and `body`.
    static func request(port: Int, _ method: String, _ target: String, headers: [String: String] = [:], body: String = "",
                        timeout: Duration = .seconds(30)) throws -> Response {
        let client = try HTTPTestClient(port: port)
        var text = "\(method) \(target) HTTP/1.1\r\nConnection: close\r\n"
        if headers["Host"] == nil { text += "Host: 127.0.0.1\r\n" }
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        if !body.isEmpty || method == "POST" { text += "Content-Length: \(body.utf8.count)\r\n" }
        text += "\r\n" + body
        client.send(text)
        guard let response = client.readResponse(timeout: timeout, headOnly: method == "HEAD") else {
            throw ControlE2EFailure(description: "no response to \(method) \(target)")
        }
        return response
    }
}

extension RunningBus {
    /// The port of the bus's HTTP server, from its ready line (`http http://127.0.0.1:PORT/`).
    var httpPort: Int? {
        guard let range = process.stderr.range(of: "http http://127.0.0.1:") else { return nil }
        return Int(process.stderr[range.upperBound...].prefix { $0.isNumber })
    }

    /// Starts a bus serving HTTP on an ephemeral loopback port; `http` adds keys to `bus.http`.
    static func startServingHTTP(http: String = "", bus: String = "", plugins: String = "[]",
                                 environment: [String: String] = [:]) async throws -> (RunningBus, Int) {
        let extra = http.isEmpty ? "" : ", " + http
        let busExtra = bus.isEmpty ? "" : ", " + bus
        let running = try await RunningBus.start(bus: #"{"name": "e2e", "http": {"listen": "127.0.0.1:0"\#(extra)}\#(busExtra)}"#,
                                                  plugins: plugins, environment: environment)
        guard let port = running.httpPort else {
            throw ControlE2EFailure(description: "the ready line names no HTTP port: \(running.process.stderr)")
        }
        return (running, port)
    }
}
