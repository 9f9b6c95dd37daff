import SwitchyardIO

/// A blocking client of a control socket for tests, on the one line client the command line
/// uses too: requests are written and replies read as lines of bytes, so the protocol is
/// checked from outside. Its calls block their thread: run them on a thread of their own
/// (`onThread`), never on the cooperative pool.
///
/// Failures are clear and thrown: a read that waited its whole (scaled) time says so, apart
/// from the end of the stream (`nil`). A test that expects the bus to go quiet or to hang up
/// says so at the call with `try?`.
public final class ControlTestClient: Sendable {
    /// Why a call failed, naming the socket and the cause.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        /// Whether a read gave up because its time ran out.
        public var timedOut = false

        public init(description: String, timedOut: Bool = false) {
            self.description = description
            self.timedOut = timedOut
        }
    }

    private let connection: LineSocketClient
    private let path: String
    /// The connected socket, for tests that shape it (buffer sizes, a reset on close).
    public var descriptor: Int32 { connection.descriptor }

    /// Connects to the control socket at `path`.
    /// - Throws: ``Failure`` naming the path when nothing listens there or it cannot be reached.
    public init(path: String) throws(Failure) {
        do {
            connection = try LineSocketClient(path: path)
        } catch {
            throw Failure(description: "connect \(path): \(error.description)")
        }
        self.path = path
    }

    /// Writes all of `text`.
    /// - Throws: ``Failure`` when the bus closed the connection or the write failed.
    public func write(_ text: String) throws(Failure) {
        try write(Array(text.utf8))
    }

    /// Writes all of `bytes`.
    /// - Throws: ``Failure`` when the bus closed the connection or the write failed.
    public func write(_ bytes: [UInt8]) throws(Failure) {
        do {
            try connection.write(bytes)
        } catch {
            throw Failure(description: "write to \(path): \(error.description)")
        }
    }

    /// The next line, `nil` at the end of the stream. Default wait: 30 s, scaled for a busy
    /// machine (see ``TestTimeouts``).
    /// - Throws: ``Failure`` when no line came in time (``Failure/timedOut``) or reading failed.
    public func readLine(timeout: Duration = .seconds(30)) throws(Failure) -> String? {
        try readLineBytes(timeout: timeout).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The next line's bytes, `nil` at the end of the stream; waits as ``readLine(timeout:)``.
    /// - Throws: ``Failure`` when no line came in time (``Failure/timedOut``) or reading failed.
    public func readLineBytes(timeout: Duration = .seconds(30)) throws(Failure) -> ArraySlice<UInt8>? {
        let budget = TestDeadline(after: timeout).budget
        do {
            return try connection.readLine(timeout: budget)
        } catch {
            throw Failure(description: "read from \(path): \(error.description)", timedOut: error.timedOut)
        }
    }

    /// Sends one request line and returns the reply line.
    /// - Throws: ``Failure`` when the write failed, the bus hung up instead of replying, or
    ///   no reply came within 30 s (scaled).
    public func request(_ line: String) throws(Failure) -> String {
        try write(line + "\n")
        guard let reply = try readLine() else { throw Failure(description: "\(path) closed without replying to \(line)") }
        return reply
    }

    /// Half-closes: the bus sees the end of the requests.
    public func finishWriting() {
        connection.finishWriting()
    }
}
