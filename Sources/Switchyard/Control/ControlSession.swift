/// The protocol state of one control connection, free of I/O: it frames request lines,
/// parses them, and hands out one step at a time, in request order.
///
/// A dispatch makes the session busy until ``completed()``: later requests wait (the client
/// may pipeline them), so replies come in request order. After a watch the connection only
/// streams; a request sent on it is answered with ``ControlError/busy``.
struct ControlSession: Sendable {
    /// What the connection does next.
    enum Step: Sendable, Hashable {
        /// Send this error reply; the connection stays open.
        case error(ControlError)
        /// Dispatch the action and reply once it is reduced, then call ``completed()``.
        case dispatch(BusAction)
        /// Reply with the state at the path.
        case state(path: String)
        /// Reply with the counters.
        case stats
        /// Reply `ok` and start streaming.
        case watch(actions: TypePattern?, state: String?)
    }

    private var reader: LineReader
    /// A dispatch is in flight.
    private(set) var isBusy = false
    /// A watch was accepted.
    private(set) var isWatching = false
    /// The peer ended its side of the stream.
    private(set) var inputEnded = false

    init(maximumLineLength: Int) {
        reader = LineReader(maximumLength: maximumLineLength)
    }

    /// Bytes held that no step consumed yet.
    var bufferedCount: Int { reader.bufferedCount }

    /// Whether to read more from the socket: until the input ends, while less than
    /// `readAhead` bytes wait, or whenever only more input can complete a line.
    func wantsInput(readAhead: Int) -> Bool {
        !inputEnded && (reader.bufferedCount < readAhead || (!isBusy && reader.needsInput))
    }

    /// Whether every request has been answered after the input ended.
    var isFinished: Bool { inputEnded && !isBusy && reader.isFinished }

    mutating func receive(_ bytes: UnsafeRawBufferPointer) {
        reader.append(bytes)
    }

    mutating func receiveEnd() {
        inputEnded = true
        reader.end()
    }

    /// The in-flight dispatch was answered.
    mutating func completed() {
        isBusy = false
    }

    /// The next step, or `nil` while busy or until more input arrives.
    mutating func nextStep() -> Step? {
        guard !isBusy, let piece = reader.next() else { return nil }
        let line: [UInt8]
        switch piece {
        case .tooLong: return .error(.lineTooLong(limit: reader.maximumLength))
        case .line(let bytes): line = bytes
        }
        guard !isWatching else { return .error(.busy) }
        let request: ControlRequest
        do {
            request = try ControlRequest(line: line)
        } catch {
            return .error(error)
        }
        switch request {
        case .dispatch(let action):
            isBusy = true
            return .dispatch(action)
        case .state(let path):
            return .state(path: path)
        case .stats:
            return .stats
        case .watch(let actions, let state):
            isWatching = true
            return .watch(actions: actions, state: state)
        }
    }
}
