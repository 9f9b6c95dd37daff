import SwitchyardBus
import Testing

extension TestBus {
    /// Waits for the first action matching `pattern` and `predicate` that no earlier `receive`
    /// returned (one already recorded or still to come), and returns it; successive calls walk
    /// through the matching actions in order. `nil`, with an issue recorded, when none comes
    /// within `timeout` (default: the bus's) or the bus stopped first.
    @discardableResult
    public func receive(
        _ pattern: String,
        where predicate: @escaping @Sendable (BusAction) -> Bool = { _ in true },
        timeout: Duration? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async -> BusAction? {
        guard let pattern = typePattern(pattern, sourceLocation) else { return nil }
        let matches: @Sendable (BusAction) -> Bool = { pattern.matches($0.type) && predicate($0) }
        while true {
            if let action = recording.claimFirst(where: matches) { return action }
            let waited = await wait("an action matching \(pattern) to be received", timeout: timeout, sourceLocation: sourceLocation) {
                $0.isFinished || $0.actions.contains(where: matches)
            }
            guard waited else { return nil }
            if let action = recording.claimFirst(where: matches) { return action }
            if recording.snapshot.isFinished {
                record("Expected to receive an action matching \(pattern), but the bus stopped first", sourceLocation)
                return nil
            }
        }
    }

    /// Waits until `count` actions matching `pattern` were reduced and returns the matching
    /// ones (all of them, possibly more than `count`); on a timeout records an issue and
    /// returns those there are.
    @discardableResult
    public func waitFor(
        _ pattern: String, count: Int = 1, timeout: Duration? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) async -> [BusAction] {
        guard let matcher = typePattern(pattern, sourceLocation) else { return [] }
        await wait("\(count) action(s) matching \(pattern)", timeout: timeout, sourceLocation: sourceLocation) { snapshot in
            snapshot.actions.count(where: { matcher.matches($0.type) }) >= count
        }
        return actions(pattern)
    }

    /// Waits until `condition` holds for the recorded actions (in order); `false`, with an
    /// issue naming `description` recorded, when it does not within `timeout` or the bus
    /// stopped first.
    @discardableResult
    public func waitUntil(
        _ description: @autoclosure () -> String,
        timeout: Duration? = nil,
        sourceLocation: SourceLocation = #_sourceLocation,
        _ condition: @escaping @Sendable ([BusAction]) -> Bool
    ) async -> Bool {
        await wait(description(), timeout: timeout, sourceLocation: sourceLocation) { condition($0.actions) }
    }

    /// Waits until `count` log lines contain `text`; `false`, with an issue recorded, when they
    /// do not within `timeout`.
    @discardableResult
    public func waitForLog(
        containing text: String, count: Int = 1, timeout: Duration? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) async -> Bool {
        await wait("\(count) log line(s) containing \"\(text)\"", timeout: timeout, sourceLocation: sourceLocation) { snapshot in
            snapshot.logLines.count(where: { $0.contains(text) }) >= count
        }
    }

    /// Waits for `condition`; gives up (and records an issue) when the bound passes or when the
    /// recording ended without the condition holding.
    @discardableResult
    func wait(
        _ description: @autoclosure () -> String, timeout: Duration? = nil, sourceLocation: SourceLocation,
        _ condition: @escaping @Sendable (TestBusRecording.Snapshot) -> Bool
    ) async -> Bool {
        let limit = (timeout ?? self.timeout) * RealTimeScale.factor
        let ended = await recording.wait(limit: limit) { $0.isFinished || condition($0) }
        if ended, condition(recording.snapshot) { return true }
        let snapshot = recording.snapshot
        let why = snapshot.isFinished ? "the bus stopped first" : "not within \(limit)"
        record("Waited for \(description()): \(why). Recorded: \(snapshot.actions.map(\.type))", sourceLocation)
        return false
    }

    func typePattern(_ text: String, _ sourceLocation: SourceLocation) -> TypePattern? {
        guard let pattern = TypePattern(text) else {
            record("\"\(text)\" is not a type pattern (domain/event, domain/*, or *)", sourceLocation)
            return nil
        }
        return pattern
    }

    func record(_ message: String, _ sourceLocation: SourceLocation) {
        Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
    }
}
