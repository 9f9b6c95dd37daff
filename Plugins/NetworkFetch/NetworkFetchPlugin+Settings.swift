import SwitchyardBus

extension NetworkFetchConfiguration {
    /// Reads every key of a `network-fetch` entry, recording each problem in `settings` (the
    /// caller's `finish()` throws them) and returning defaults where a value is unusable.
    static func read(from settings: PluginSettings, name: String) -> NetworkFetchConfiguration {
        var trigger: TypePattern?
        if settings.contains("on") {
            let pattern = settings.typePattern("on", default: .all)
            if let text = settings.json("on")?.stringValue, TypePattern(text) != nil { trigger = pattern }
        } else {
            _ = settings.json("on")
            settings.problem("", "missing required key \"on\"")
        }
        let policy = readPolicy(settings)
        var request = RequestTemplate(method: "GET", url: .empty, headers: [], body: nil)
        var timeout = Duration.seconds(10)
        if let requestSettings = settings.object("request") {
            (request, timeout) = readRequest(requestSettings)
        } else if !settings.contains("request") {
            settings.problem("", "missing required key \"request\"")
        }
        var configuration = NetworkFetchConfiguration(
            trigger: trigger ?? .all, request: request, prefix: settings.string("emit", default: name))
        configuration.policy = policy
        configuration.timeout = timeout
        configuration.debounce = settings.seconds("debounce", range: 0.001...86_400)
        if let retrySettings = settings.object("retry") {
            configuration.retry = readRetry(retrySettings)
        }
        configuration.maxResponseBytes = settings.int(
            "maxResponseBytes", default: configuration.maxResponseBytes, range: 1...(1 << 30))
        configuration.maxRedirects = settings.int("maxRedirects", default: configuration.maxRedirects, range: 0...20)
        if let extract = settings.string("extract") {
            if extract.isEmpty || extract.split(separator: ".", omittingEmptySubsequences: false).contains(where: \.isEmpty) {
                settings.problem("extract", "expected a dotted path such as \"data.items\", got \(JSON.string(extract))")
            } else {
                configuration.extract = extract
            }
        }
        if let problem = configuration.prefixProblem {
            settings.problem("emit", problem)
        } else if trigger != nil, let problem = configuration.loopProblem {
            settings.problem("on", problem)
        }
        return configuration
    }

    private static func readPolicy(_ settings: PluginSettings) -> WorkPolicy {
        let policy = settings.oneOf("policy", ["latest", "every", "leading", "queue"], default: "latest")
        let maxConcurrent = settings.int("maxConcurrent", range: 1...64)
        if maxConcurrent != nil, policy != "every" {
            settings.problem("maxConcurrent", "only applies to policy \"every\" (the policy is \"\(policy)\")")
        }
        switch policy {
        case "every": return .every(maxConcurrent: maxConcurrent ?? 4)
        case "leading": return .leading
        case "queue": return .queue
        default: return .latest
        }
    }

    private static func readRequest(_ settings: PluginSettings) -> (RequestTemplate, Duration) {
        let method = settings.oneOf("method", RequestTemplate.methods, default: "GET")
        var url = TextTemplate.empty
        let urlText = settings.requiredString("url")
        if !urlText.isEmpty {
            do {
                url = try TextTemplate(parsing: urlText)
                if !RequestTemplate.hasValidShape(url) {
                    let shown = JSON.string(Redaction.redactedURL(urlText))
                    settings.problem("url", "expected an absolute http:// or https:// URL with a host, got \(shown)")
                }
            } catch {
                settings.problem("url", error.description)
            }
        }
        var headers: [RequestTemplate.Header] = []
        for (headerName, value) in settings.stringMap("headers").sorted(by: { $0.key < $1.key }) {
            guard RequestTemplate.isValidHeaderName(headerName) else {
                let reason = "is not a valid header name (letters, digits and !#$%&'*+-.^_`|~)"
                settings.problem("headers", "\(JSON.string(headerName)) \(reason)")
                continue
            }
            do {
                headers.append(RequestTemplate.Header(name: headerName, value: try TextTemplate(parsing: value)))
            } catch {
                let reason = Redaction.isSensitiveHeader(headerName)
                    ? "the value is not a valid template; write {{ and }} for literal braces" : error.description
                settings.problem("headers.\(headerName)", reason)
            }
            if value.contains("\r") || value.contains("\n") {
                settings.problem("headers.\(headerName)", "a header value cannot contain a line break")
            }
        }
        var body: BodyTemplate?
        if let bodyJSON = settings.json("body") {
            do {
                body = try BodyTemplate(parsing: bodyJSON)
            } catch {
                settings.problem(error.location.isEmpty ? "body" : "body.\(error.location)", error.reason.description)
            }
        }
        let timeout = settings.seconds("timeout", default: .seconds(10), range: 0.001...3600)
        return (RequestTemplate(method: method, url: url, headers: headers, body: body), timeout)
    }

    private static func readRetry(_ settings: PluginSettings) -> RetryPolicy {
        let defaults = RetryPolicy()
        let retry = RetryPolicy(
            attempts: settings.int("attempts", default: defaults.attempts, range: 1...10),
            baseDelay: settings.seconds("baseDelay", default: defaults.baseDelay, range: 0.001...3600),
            maxDelay: settings.seconds("maxDelay", default: defaults.maxDelay, range: 0.001...86_400))
        if retry.maxDelay < retry.baseDelay {
            settings.problem("maxDelay", "must be at least baseDelay (\(Fetcher.format(retry.baseDelay)))")
        }
        return retry
    }
}
