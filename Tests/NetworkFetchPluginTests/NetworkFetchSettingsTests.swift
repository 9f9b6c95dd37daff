import Foundation
import SwitchyardBus
import SwitchyardBusTesting
import Testing

@testable import NetworkFetchPlugin

/// Reading and validating a `network-fetch` entry's settings.
struct NetworkFetchSettingsTests {
    private func plugin(_ settings: JSON, name: String = "places") throws -> NetworkFetchPlugin {
        try NetworkFetchPlugin(name: name, settings: PluginSettings(settings.objectValue ?? [:], path: "plugins[0]"))
    }

    private func problems(_ settings: JSON) -> [String] {
        settingsProblems { try plugin(settings) }
    }

    private static let minimal: JSON = ["on": "location/changed", "request": ["url": "https://h.example/p?lat={payload.lat}"]]

    /// A minimal entry gets the documented defaults.
    @Test func minimalEntryGetsDefaults() throws {
        let configuration = try plugin(Self.minimal).configuration
        #expect(configuration.trigger == TypePattern("location/changed"))
        #expect(configuration.policy == .latest)
        #expect(configuration.debounce == nil)
        #expect(configuration.request.method == "GET")
        #expect(configuration.request.headers.isEmpty)
        #expect(configuration.request.body == nil)
        #expect(configuration.timeout == .seconds(10))
        #expect(configuration.retry == RetryPolicy(attempts: 3, baseDelay: .milliseconds(500), maxDelay: .seconds(30)))
        #expect(configuration.maxResponseBytes == 10_485_760)
        #expect(configuration.maxRedirects == 5)
        #expect(configuration.extract == nil)
        #expect(configuration.prefix == "places")
    }

    /// Every setting is read into the configuration.
    @Test func fullEntryIsRead() throws {
        let configuration = try plugin([
            "on": "rates/reload", "policy": "every", "maxConcurrent": 3, "debounce": 0.25,
            "request": [
                "method": "POST", "url": "https://h.example/rates", "headers": ["Authorization": "Bearer {state.auth.token}"],
                "body": ["base": "{payload.base}"], "timeout": 2.5,
            ],
            "retry": ["attempts": 5, "baseDelay": 0.1, "maxDelay": 4],
            "maxResponseBytes": 1000, "maxRedirects": 0, "extract": "data.rates", "emit": "rates",
        ]).configuration
        #expect(configuration.policy == .every(maxConcurrent: 3))
        #expect(configuration.debounce == .milliseconds(250))
        #expect(configuration.request.method == "POST")
        #expect(configuration.request.headers.map(\.name) == ["Authorization"])
        #expect(configuration.request.body == .object(["base": .value(PlaceholderPath(root: .payload, steps: ["base"]))]))
        #expect(configuration.timeout == .milliseconds(2500))
        #expect(configuration.retry == RetryPolicy(attempts: 5, baseDelay: .milliseconds(100), maxDelay: .seconds(4)))
        #expect(configuration.maxResponseBytes == 1000)
        #expect(configuration.maxRedirects == 0)
        #expect(configuration.extract == "data.rates")
        #expect(configuration.emittedTypes == ["rates/loading", "rates/loaded", "rates/failed"])
    }

    /// Each kind of bad input is reported with its key path and a reason.
    @Test(arguments: [
        (#"{"request": {"url": "https://h/x"}}"#, #"plugins[0]: missing required key "on""#),
        (#"{"on": "a/b"}"#, #"plugins[0]: missing required key "request""#),
        (#"{"on": "a/b", "request": {}}"#, #"plugins[0].request: missing required key "url""#),
        (#"{"on": "a/b", "request": "https://h/x"}"#, #"plugins[0].request: expected an object, got "https://h/x""#),
        (#"{"on": "a/b", "request": {"url": "ftp://h/x"}}"#,
         #"plugins[0].request.url: expected an absolute http:// or https:// URL with a host, got "ftp://h/x""#),
        (#"{"on": "a/b", "request": {"url": "https://u:pw@/x?key=k"}}"#,
         #"plugins[0].request.url: expected an absolute http:// or https:// URL with a host, got "https://***@/x?key=***""#),
        (#"{"on": "a/b", "request": {"url": "https://h/{payload.x"}}"#,
         #"plugins[0].request.url: a "{" at character 11 is never closed (write {{ for a literal brace)"#),
        (#"{"on": "a/b", "request": {"url": "https://h/{paylaod.x}"}}"#,
         #"plugins[0].request.url: unknown placeholder {paylaod.x}: use {payload.PATH} or {state.PATH} (write {{ and }} for literal braces)"#),
        (#"{"on": "a/b", "request": {"url": "https://h/x", "method": "FETCH"}}"#,
         #"plugins[0].request.method: expected one of "GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", got "FETCH""#),
        (#"{"on": "a/b", "request": {"url": "https://h/x", "headers": {"Bad Name": "v"}}}"#,
         #"plugins[0].request.headers: "Bad Name" is not a valid header name (letters, digits and !#$%&'*+-.^_`|~)"#),
        (#"{"on": "a/b", "request": {"url": "https://h/x", "headers": {"Authorization": "Bearer {t0k/en}"}}}"#,
         #"plugins[0].request.headers.Authorization: the value is not a valid template; write {{ and }} for literal braces"#),
        (#"{"on": "a/b", "request": {"url": "https://h/x", "headers": {"X-A": "a\nb"}}}"#,
         #"plugins[0].request.headers.X-A: a header value cannot contain a line break"#),
        (#"{"on": "a/b", "request": {"url": "https://h/x", "body": {"items": [{"id": "{payload.id"}]}}}"#,
         #"plugins[0].request.body.items[0].id: a "{" at character 1 is never closed (write {{ for a literal brace)"#),
        (#"{"on": "a/b", "request": {"url": "https://h/x", "timeout": 0}}"#,
         #"plugins[0].request.timeout: expected a number of seconds 0.001-3600, got 0"#),
        (#"{"on": "a/b", "request": {"url": "https://h/x"}, "policy": "lastest"}"#,
         #"plugins[0].policy: expected one of "latest", "every", "leading", "queue", got "lastest"; did you mean "latest"?"#),
        (#"{"on": "a/b", "request": {"url": "https://h/x"}, "maxConcurrent": 2}"#,
         #"plugins[0].maxConcurrent: only applies to policy "every" (the policy is "latest")"#),
        (#"{"on": "a/b", "request": {"url": "https://h/x"}, "policy": "every", "maxConcurrent": 0}"#,
         #"plugins[0].maxConcurrent: expected an integer 1-64, got 0"#),
        (#"{"on": "a/b", "request": {"url": "https://h/x"}, "debounce": -1}"#,
         #"plugins[0].debounce: expected a number of seconds 0.001-86400, got -1"#),
        (#"{"on": "a/b", "request": {"url": "https://h/x"}, "retry": {"attempts": 0}}"#,
         #"plugins[0].retry.attempts: expected an integer 1-10, got 0"#),
        (#"{"on": "a/b", "request": {"url": "https://h/x"}, "retry": {"baseDelay": 5, "maxDelay": 1}}"#,
         #"plugins[0].retry.maxDelay: must be at least baseDelay (5 s)"#),
        (#"{"on": "a/b", "request": {"url": "https://h/x"}, "maxResponseBytes": 0}"#,
         #"plugins[0].maxResponseBytes: expected an integer 1-1073741824, got 0"#),
        (#"{"on": "a/b", "request": {"url": "https://h/x"}, "extract": "a..b"}"#,
         #"plugins[0].extract: expected a dotted path such as "data.items", got "a..b""#),
        (#"{"on": "a/b", "request": {"url": "https://h/x"}, "emit": "Places"}"#,
         #"plugins[0].emit: "Places" does not make valid action types such as "Places/loaded" (lower-case letters, digits, -, _ and .)"#),
        (#"{"on": "*", "request": {"url": "https://h/x"}}"#,
         #"plugins[0].on: "*" matches this plugin's own "places/loading", which would trigger requests endlessly"#),
        (#"{"on": "places/*", "request": {"url": "https://h/x"}}"#,
         #"plugins[0].on: "places/*" matches this plugin's own "places/loading", which would trigger requests endlessly"#),
        (#"{"on": "Location/Changed", "request": {"url": "https://h/x"}}"#,
         #"plugins[0].on: expected an action type pattern: "*" (every action), "domain/*" (every action of a domain) or "domain/event" (lower-case letters, digits, '-', '_' and '.'), "*/event" (that event of every domain), or several separated by spaces, got "Location/Changed""#),
        (#"{"on": "a/b", "request": {"url": "https://h/x", "timout": 3}}"#,
         #"plugins[0].request.timout: unknown key "timout"; did you mean "timeout"?"#),
        (#"{"on": "a/b", "request": {"url": "https://h/x"}, "polcy": "queue"}"#,
         #"plugins[0].polcy: unknown key "polcy"; did you mean "policy"?"#),
    ])
    func reportsBadInput(settings: String, problem: String) throws {
        let found = problems(try JSON(parsing: settings))
        #expect(found == [problem], "\(found)")
    }

    /// Every problem of an entry is reported at once.
    @Test func reportsEveryProblemAtOnce() {
        let found = problems(["on": "*", "policy": "sometimes", "request": ["url": "gopher://x", "timeout": -2], "extract": ""])
        #expect(found.count == 5)
        #expect(found.contains { $0.hasPrefix("plugins[0].policy:") })
        #expect(found.contains { $0.hasPrefix("plugins[0].request.url:") })
        #expect(found.contains { $0.hasPrefix("plugins[0].request.timeout:") })
        #expect(found.contains { $0.hasPrefix("plugins[0].extract:") })
        #expect(found.contains { $0.hasPrefix("plugins[0].on:") })
    }

    /// The slice starts idle and the subscription is the `on` pattern.
    @Test func exposesSliceAndSubscription() throws {
        let plugin = try plugin(Self.minimal)
        #expect(plugin.subscription?.pattern == TypePattern("location/changed"))
        #expect(plugin.slice?.initial == LoadableSlice.initial)
    }
}
