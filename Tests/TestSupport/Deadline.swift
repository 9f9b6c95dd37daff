import Testing

/// Runs `body`, recording an issue and returning `nil` instead of hanging the suite when it
/// takes over `seconds` of real time (scaled by `SWITCHYARD_TEST_TIMEOUT_SCALE`): for code that
/// could deadlock. The bound is a safety net, never a speed check.
public func withDeadline<T: Sendable>(
    _ seconds: Int = 60, sourceLocation: SourceLocation = #_sourceLocation, _ body: @escaping @Sendable () async -> T
) async -> T? {
    let limit = TestTimeouts.scaled(.seconds(seconds))
    return await withTaskGroup(of: T?.self) { group in
        group.addTask { await body() }
        group.addTask {
            try? await Task.sleep(for: limit)
            return nil
        }
        let first = await group.next() ?? nil
        group.cancelAll()
        if first == nil { Issue.record("did not finish within \(limit) (deadlock?)", sourceLocation: sourceLocation) }
        return first
    }
}
