import FoundationEssentials
import SwitchyardBus

/// Sends a templated HTTP request whenever a matching action arrives, and keeps the result as
/// a loadable in `state.NAME`.
///
/// For each trigger it emits `PREFIX/loading` (`requestId`, `cause`, `method`, redacted `url`),
/// then `PREFIX/loaded` (`requestId`, `value`, `status`, `elapsedMs`, `attempts`) or
/// `PREFIX/failed` (`requestId`, `kind`: network | timeout | http | decode | too-large |
/// template, `status`, `message`, `attempts`, `elapsedMs`, and `path` for a placeholder
/// without a value). `PREFIX` is the `emit` setting, by default the plugin's name. Credentials
/// (Authorization and key-like headers, key- or token-like query values, URL user info) never
/// appear in actions or log lines.
public struct NetworkFetchPlugin: Plugin {
    public static let kind = "network-fetch"
    public static let summary =
        "On matching actions, sends a templated HTTP request and emits NAME/loading, NAME/loaded or NAME/failed; state.NAME is a loadable."
    public static let settingDescriptions: [SettingDescription] = [
        SettingDescription("on", "type pattern", "The actions that trigger a request: exact, \"domain/*\" or \"*\"."),
        SettingDescription("policy", "\"latest\" | \"every\" | \"leading\" | \"queue\"", default: "\"latest\"",
                           "latest cancels the request in flight; every runs up to maxConcurrent at once; leading ignores triggers while busy; queue runs them in order."),
        SettingDescription("maxConcurrent", "integer 1-64", default: "4", "With policy every: requests in flight at once."),
        SettingDescription("debounce", "number of seconds > 0", default: "none",
                           "Act on a trigger only after no other arrived for this long (trailing edge)."),
        SettingDescription("request.method", "GET | POST | PUT | PATCH | DELETE | HEAD | OPTIONS", default: "\"GET\"", "The HTTP method."),
        SettingDescription("request.url", "http(s) URL template",
                           "The URL; {payload.PATH} and {state.PATH} placeholders are percent-encoded."),
        SettingDescription("request.headers", "object of string templates", default: "{}",
                           "Extra headers; placeholders are inserted as text. Accept defaults to application/json."),
        SettingDescription("request.body", "JSON template", default: "none",
                           "A JSON body; a string that is exactly one placeholder keeps the value's type. Sent as application/json."),
        SettingDescription("request.timeout", "number of seconds", default: "10", "Limit for one attempt, from sending to the last byte."),
        SettingDescription("retry.attempts", "integer 1-10", default: "3", "Attempts in total; retried on network errors, timeouts, 5xx and 429."),
        SettingDescription("retry.baseDelay", "number of seconds", default: "0.5", "Backoff before the first retry; doubles per attempt, with jitter."),
        SettingDescription("retry.maxDelay", "number of seconds", default: "30", "Longest wait between attempts, also for Retry-After."),
        SettingDescription("maxResponseBytes", "integer ≥ 1", default: "10485760", "Larger bodies fail with kind too-large."),
        SettingDescription("maxRedirects", "integer 0-20", default: "5", "Redirects followed; credentials are dropped when one leaves the origin."),
        SettingDescription("extract", "dotted path", default: "none", "Keep only this part of the response JSON, such as \"data.items\"."),
        SettingDescription("emit", "action prefix", default: "the plugin name", "Prefix of the emitted action types (PREFIX/loaded …)."),
    ]

    let name: String
    let configuration: NetworkFetchConfiguration
    private let requestIDs = RequestIDs()

    /// Reads and validates every setting; see ``settingDescriptions``.
    ///
    /// - Throws: ``PluginSettingsError`` with every problem: a missing `on` or `request.url`,
    ///   malformed placeholders, a URL that is not http(s), invalid header names, out-of-range
    ///   numbers, `maxConcurrent` without policy `every`, an `emit` prefix that makes invalid
    ///   action types, or an `on` pattern matching the plugin's own actions.
    public init(name: String, settings: PluginSettings) throws {
        self.name = name
        configuration = NetworkFetchConfiguration.read(from: settings, name: name)
        try settings.finish()
    }

    /// The actions matching `on`, with the default buffer (the oldest are dropped when the
    /// plugin falls behind).
    public var subscription: ActionSubscription? {
        ActionSubscription(configuration.trigger)
    }

    /// `state.NAME`, the loadable: starts idle; see ``LoadableSlice`` for the transitions and
    /// the rule that only the current request's result counts.
    public var slice: StateSlice? {
        LoadableSlice.slice(source: name, prefix: configuration.prefix)
    }

    /// The loadable alone, for reducing without running: it depends only on the name and the
    /// `emit` prefix, so the request's settings (a URL or key from the environment) are not read.
    /// - Throws: ``PluginSettingsError`` for an `emit` prefix that makes invalid action types.
    public static func slice(name: String, settings: PluginSettings) throws -> StateSlice? {
        let prefix = settings.string("emit", default: name)
        if let problem = NetworkFetchConfiguration.prefixProblem(prefix) { settings.problem("emit", problem) }
        guard settings.problems.isEmpty else { throw PluginSettingsError(problems: settings.problems) }
        return LoadableSlice.slice(source: name, prefix: prefix)
    }

    /// Handles triggers under the configured policy until cancelled, on one libcurl multi
    /// handle freed on return; never throws (every failure becomes `NAME/failed`; without
    /// libcurl installed, every request fails with kind `network` saying so, logged once here).
    public func run(context: PluginContext) async throws {
        let transport = CurlTransport(maxRedirects: configuration.maxRedirects)
        defer { transport.shutDown() }
        let log = context.log
        if let unavailable = transport.unavailable { log.error("no request can be sent: \(unavailable)") }
        let fetcher = Fetcher(
            configuration: configuration, transport: transport, clock: context.clock,
            onRetry: { notice in
                let delay = Fetcher.format(notice.delay)
                log.info("attempt \(notice.attempt) of \(notice.attempts) failed (\(notice.problem)); retrying in \(delay)")
            })
        let engine = FetchEngine(
            configuration: configuration, fetcher: fetcher,
            emit: { type, payload, cause in await context.dispatch(type, payload: payload, cause: cause) },
            state: { context.state }, warn: { log.warning($0) }, requestIDs: requestIDs, secrets: context.secrets)
        let runner = PolicyRunner(
            policy: configuration.policy, debounce: configuration.debounce, clock: context.clock,
            observe: { event in
                if event == .dropped { log.info("a trigger was ignored: a request is in flight (policy leading)") }
            })
        await runner.run(context.actions) { await engine.handle($0) }
    }
}
