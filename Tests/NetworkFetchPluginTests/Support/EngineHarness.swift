import Foundation
import Switchyard

@testable import NetworkFetchPlugin

/// A ``FetchEngine`` wired to a ``RecordingBus``, a ``TestClock`` and a transport, with a
/// ``PolicyRunner`` fed by ``trigger(_:payload:)``.
struct EngineHarness: Sendable {
    let bus: RecordingBus
    let clock: TestClock
    let engine: FetchEngine
    let runner: PolicyRunner
    private let triggers: AsyncStream<BusAction>.Continuation
    private let stream: AsyncStream<BusAction>

    /// Builds the harness for `configuration`; `jitter` is the random number backoff uses.
    init(
        _ configuration: NetworkFetchConfiguration, name: String = "places", transport: any HTTPTransport,
        state: JSON = .emptyObject, jitter: Double = 0.5
    ) {
        let bus = RecordingBus(name: name, prefix: configuration.prefix)
        let clock = TestClock()
        let fetcher = Fetcher(
            transport: transport, retry: configuration.retry, timeout: configuration.timeout,
            maxResponseBytes: configuration.maxResponseBytes, extract: configuration.extract, clock: clock,
            jitter: { jitter }, now: { Date() }, onRetry: { bus.log("retry: \($0.problem)") })
        self.bus = bus
        self.clock = clock
        engine = FetchEngine(
            configuration: configuration, fetcher: fetcher, emit: { bus.emit($0, $1, $2) }, state: { state },
            warn: { bus.log($0) }, requestIDs: RequestIDs())
        runner = PolicyRunner(
            policy: configuration.policy, debounce: configuration.debounce, clock: clock,
            observe: { bus.log("runner: \($0)") })
        (stream, triggers) = AsyncStream.makeStream(of: BusAction.self)
    }

    /// Records a trigger action and hands it to the runner.
    @discardableResult
    func trigger(_ type: String = "location/changed", payload: JSON = .null) -> BusAction {
        let action = bus.trigger(type, payload: payload)
        triggers.yield(action)
        return action
    }

    /// Runs the policy runner until `body` returns, then stops it.
    func running(_ body: () async throws -> Void) async throws {
        let engine = engine
        let runner = runner
        let stream = stream
        let task = Task { await runner.run(stream) { await engine.handle($0) } }
        do {
            try await body()
        } catch {
            task.cancel()
            await task.value
            throw error
        }
        task.cancel()
        await task.value
    }
}

extension NetworkFetchConfiguration {
    /// A configuration for tests: `GET url` on `location/changed`, prefix `places`, one attempt
    /// unless `retry` says otherwise, and a 30 s timeout that only the test clock can reach.
    static func testing(
        url: String, policy: WorkPolicy = .latest, retry: RetryPolicy = RetryPolicy(attempts: 1),
        timeout: Duration = .seconds(30), headers: [(String, String)] = [], body: JSON? = nil, method: String = "GET",
        maxResponseBytes: Int = 1 << 20, extract: String? = nil, debounce: Duration? = nil
    ) throws -> NetworkFetchConfiguration {
        let request = RequestTemplate(
            method: method, url: try TextTemplate(parsing: url),
            headers: try headers.map { RequestTemplate.Header(name: $0.0, value: try TextTemplate(parsing: $0.1)) },
            body: try body.map { try BodyTemplate(parsing: $0) })
        var configuration = NetworkFetchConfiguration(
            trigger: TypePattern("location/changed")!, request: request, prefix: "places")
        configuration.policy = policy
        configuration.retry = retry
        configuration.timeout = timeout
        configuration.maxResponseBytes = maxResponseBytes
        configuration.extract = extract
        configuration.debounce = debounce
        return configuration
    }
}
