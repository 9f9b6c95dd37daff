import Testing

/// Checks `condition` until it holds or `timeout` (scaled by `SWITCHYARD_TEST_TIMEOUT_SCALE`)
/// passes, sleeping `interval` between checks so the code under test gets the CPU. Returns
/// whether it held; on a timeout it also records an issue naming `description`.
///
/// The default bound, 30 s, is for things that take milliseconds on an idle machine: it only
/// ends a test that would otherwise hang. Cancellation ends the wait early with `false`.
@discardableResult
public func waitUntil(
    _ description: String,
    timeout: Duration = .seconds(30),
    interval: Duration = .milliseconds(2),
    sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: () async throws -> Bool
) async rethrows -> Bool {
    if try await eventually(timeout: timeout, interval: interval, condition) { return true }
    Issue.record("timed out after \(TestTimeouts.scaled(timeout)) waiting until \(description)", sourceLocation: sourceLocation)
    return false
}

/// Checks `condition` until it holds or `timeout` (scaled) passes, without recording an
/// issue: for callers that report the failure themselves, with more context.
@discardableResult
public func eventually(
    timeout: Duration = .seconds(30),
    interval: Duration = .milliseconds(2),
    _ condition: () async throws -> Bool
) async rethrows -> Bool {
    let deadline = TestDeadline(after: timeout)
    while true {
        if try await condition() { return true }
        if deadline.hasPassed || Task.isCancelled { return try await condition() }
        try? await Task.sleep(for: interval)
    }
}

extension Trait where Self == TimeLimitTrait {
    /// A hang guard of `minutes` minutes, scaled by `SWITCHYARD_TEST_TIMEOUT_SCALE` (rounded up).
    public static func scaledTimeLimit(minutes: Int) -> Self {
        .timeLimit(.minutes(Int((Double(minutes) * TestTimeouts.scale).rounded(.up))))
    }
}
