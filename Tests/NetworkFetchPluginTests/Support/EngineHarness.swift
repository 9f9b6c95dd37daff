import Foundation
import SwitchyardBus
import SwitchyardBusTesting
import Testing

@testable import NetworkFetchPlugin

/// The plugin's engine and policy runner inside a ``TestBus`` on a ``ManualClock``, with the
/// transport and backoff jitter a test chooses (the real plugin builds its own libcurl transport and
/// draws random jitter). Triggers are dispatched on the bus; actions, the `places` slice (the
/// plugin's own reducer) and log lines are the bus's.
struct EngineHarness: Sendable {
    /// Why a harness call could not go on; the test bus has recorded the details as an issue.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let bus: TestBus
    let clock: ManualClock
    let name: String

    /// Builds the harness for `configuration`; `state` is extra state the templates see beside
    /// the bus's, and `jitter` is the random number backoff uses.
    init(
        _ configuration: NetworkFetchConfiguration, name: String = "places", transport: any HTTPTransport,
        state: JSON = .emptyObject, jitter: Double = 0.5
    ) {
        let clock = ManualClock()
        let plugin = EngineUnderTest(name: name, configuration: configuration, transport: transport, extraState: state, jitter: jitter)
        self.clock = clock
        self.name = name
        bus = TestBus(plugins: [name: plugin], clock: clock)
    }

    /// The plugin's slice of the bus state.
    var slice: JSON { bus.state[name] ?? .null }

    /// Every recorded action, in order.
    var actions: [BusAction] { bus.actions }

    /// The recorded actions of one type, in order.
    func actions(_ type: String, sourceLocation: SourceLocation = #_sourceLocation) -> [BusAction] {
        bus.actions(type, sourceLocation: sourceLocation)
    }

    /// The log lines written so far.
    var logs: [String] { bus.logLines }

    /// Dispatches a trigger action and returns it as recorded.
    @discardableResult
    func trigger(
        _ type: String = "location/changed", payload: JSON = .null, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> BusAction {
        guard let action = await bus.dispatch(type, payload, sourceLocation: sourceLocation) else { throw Failure(description: "\(type) was not taken") }
        return action
    }

    /// Waits for the `count`-th action of `type` and returns it.
    @discardableResult
    func waitFor(_ type: String, count: Int = 1, sourceLocation: SourceLocation = #_sourceLocation) async throws -> BusAction {
        let matching = await bus.waitFor(type, count: count, sourceLocation: sourceLocation)
        guard matching.count >= count else { throw Failure(description: "no \(type) #\(count)") }
        return matching[count - 1]
    }

    /// Waits until `count` log lines contain `text`.
    func waitForLog(containing text: String, count: Int = 1, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        guard await bus.waitForLog(containing: text, count: count, sourceLocation: sourceLocation) else { throw Failure(description: "no log \"\(text)\"") }
    }

    /// Runs the bus until `body` returns, then stops it.
    func running(sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> Void) async throws {
        guard await bus.start(sourceLocation: sourceLocation) else { throw Failure(description: "the test bus did not start") }
        do {
            try await body()
        } catch {
            _ = try? await bus.stop()
            throw error
        }
        _ = try await bus.stop()
    }
}

/// The network-fetch plugin's run loop with an injected transport and jitter, its slice and
/// trigger subscription unchanged; runner events are logged as `runner: EVENT` at debug level.
private struct EngineUnderTest: Plugin {
    static let kind = "network-fetch-under-test"
    static let summary = "The network-fetch engine with an injected transport (tests only)."
    static let settingDescriptions: [SettingDescription] = []

    let name: String
    let configuration: NetworkFetchConfiguration
    let transport: any HTTPTransport
    let extraState: JSON
    let jitter: Double
    let requestIDs = RequestIDs()

    init(name: String, configuration: NetworkFetchConfiguration, transport: any HTTPTransport, extraState: JSON, jitter: Double) {
        self.name = name
        self.configuration = configuration
        self.transport = transport
        self.extraState = extraState
        self.jitter = jitter
    }

    /// Built in code only: a config file cannot name a transport.
    init(name: String, settings: PluginSettings) throws {
        throw EngineHarness.Failure(description: "\(Self.kind) is built in code by EngineHarness, not from settings")
    }

    var subscription: ActionSubscription? { ActionSubscription(configuration.trigger) }

    var slice: StateSlice? {
        let reducer = LoadableSlice(source: name, prefix: configuration.prefix)
        return StateSlice(initial: LoadableSlice.initial) { slice, action in reducer.reduce(&slice, action) }
    }

    func run(context: PluginContext) async throws {
        let log = context.log
        let jitter = jitter
        let fetcher = Fetcher(
            configuration: configuration, transport: transport, clock: context.clock, jitter: { jitter },
            onRetry: { log.info("retry: \($0.problem)") })
        let extraState = extraState
        let engine = FetchEngine(
            configuration: configuration, fetcher: fetcher,
            emit: { type, payload, cause in await context.dispatch(type, payload: payload, cause: cause) },
            state: { Self.merging(extraState, into: context.state) }, warn: { log.warning($0) }, requestIDs: requestIDs)
        let runner = PolicyRunner(
            policy: configuration.policy, debounce: configuration.debounce, clock: context.clock,
            observe: { log.debug("runner: \($0)") })
        await runner.run(context.actions) { await engine.handle($0) }
    }

    /// The bus state with `extra`'s top-level keys laid over it.
    static func merging(_ extra: JSON, into state: JSON) -> JSON {
        guard case .object(let extraKeys) = extra, case .object(var keys) = state else { return state }
        for (key, value) in extraKeys { keys[key] = value }
        return .object(keys)
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
