import SwitchyardIO

/// The protocol state of one control connection, free of I/O: it frames request lines,
/// parses them, and hands out steps in request order.
///
/// Consecutive dispatches are handed out without waiting for each other, up to
/// ``maximumInFlight``: the bus reduces them in the order they were handed to it, so their
/// replies come back in request order while a pipelining client gets many actions into each
/// reduced batch. Any other step waits until every dispatch before it was answered, so replies
/// stay in request order and a `state` after a `dispatch` sees its effect. After a watch the
/// connection only streams; a request sent on it is answered with ``ControlError/busy``.
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
        /// Let a step-by-step replay's next action through and reply once it is reduced, then
        /// call ``completed()``; waits for every dispatch before it, and later requests wait for it.
        case step
        /// Reply `ok` and start streaming.
        case watch(actions: TypePattern?, state: String?, options: WatchOptions = WatchOptions())
    }

    /// The most dispatches of one connection in flight at once.
    static let maximumInFlight = 128

    private var reader: LineReader
    /// The next step, parsed but waiting for the dispatches before it.
    private var held: Step?
    /// Dispatches handed out and not yet answered.
    private(set) var inFlight = 0
    /// A dispatch could not be handed to the bus at once, so later ones wait for it (they
    /// could overtake it otherwise).
    private var serialized = false
    /// A watch was accepted.
    private(set) var isWatching = false
    /// The peer ended its side of the stream.
    private(set) var inputEnded = false
    /// The type of the last dispatch read, reused by the next one of the same type.
    private var lastType: String?

    init(maximumLineLength: Int) {
        reader = LineReader(maximumLength: maximumLineLength)
    }

    /// Whether a dispatch is in flight.
    var isBusy: Bool { inFlight > 0 }

    /// Bytes held that no step consumed yet.
    var bufferedCount: Int { reader.bufferedCount }

    /// Whether to read more from the socket: until the input ends, while less than
    /// `readAhead` bytes wait, or whenever only more input can complete a line.
    func wantsInput(readAhead: Int) -> Bool {
        !inputEnded && (reader.bufferedCount < readAhead || (held == nil && reader.needsInput))
    }

    /// Whether every request has been answered after the input ended.
    var isFinished: Bool { inputEnded && inFlight == 0 && held == nil && reader.isFinished }

    mutating func receive(_ bytes: UnsafeRawBufferPointer) {
        reader.append(bytes)
    }

    mutating func receiveEnd() {
        inputEnded = true
        reader.end()
    }

    /// One in-flight dispatch was answered.
    mutating func completed() {
        inFlight -= 1
        if inFlight == 0 { serialized = false }
    }

    /// The last dispatch handed out waits for room in the bus: hold the next ones until it
    /// is answered.
    mutating func serializeDispatches() {
        serialized = true
    }

    /// The next step, or `nil` while it must wait for dispatches in flight or for more input.
    mutating func nextStep() -> Step? {
        // Moved, not copied: a step holds the dispatched action, whose copies each retained
        // and released its payload on the control socket's thread.
        guard let step = held.take() ?? parseNext() else { return nil }
        guard mayStart(step) else {
            held = consume step
            return nil
        }
        return step
    }

    /// Whether `step` may start now, counting it in flight when it does.
    private mutating func mayStart(_ step: Step) -> Bool {
        if case .dispatch = step {
            guard inFlight == 0 || (!serialized && inFlight < Self.maximumInFlight) else { return false }
            inFlight += 1
        } else {
            guard inFlight == 0 else { return false }
            if case .step = step { inFlight += 1 }
        }
        return true
    }

    /// Frames and reads the next request; the line is read where the reader holds it,
    /// never copied out.
    private mutating func parseNext() -> Step? {
        let watching = isWatching
        let limit = reader.maximumLength
        var lastType = self.lastType
        defer { self.lastType = lastType }
        guard let step = reader.withNext({ piece -> Step in
            switch piece {
            case .tooLong: return .error(.lineTooLong(limit: limit))
            case .line(let line): return watching ? .error(.busy) : Self.step(reading: line, lastType: &lastType)
            }
        }) else { return nil }
        if case .watch = step { isWatching = true }
        return step
    }

    private static func step(reading line: UnsafeBufferPointer<UInt8>, lastType: inout String?) -> Step {
        let request: ControlRequest
        do {
            request = try ControlRequest(line: line, lastType: &lastType)
        } catch {
            return .error(error)
        }
        switch request {
        case .dispatch(let action):
            return .dispatch(action)
        case .state(let path):
            return .state(path: path)
        case .stats:
            return .stats
        case .step:
            return .step
        case .watch(let actions, let state, let options):
            return .watch(actions: actions, state: state, options: options)
        }
    }
}
