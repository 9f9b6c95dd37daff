import SwitchyardIO
import FoundationEssentials
import SwitchyardBus

/// Sends one prepared request: each attempt raced against the timeout on the injected clock,
/// failed attempts retried per ``RetryPolicy`` with backoff sleeps on that clock, and the final
/// response decoded.
struct Fetcher: Sendable {
    enum Outcome: Sendable, Hashable {
        case loaded(value: JSON, status: Int, attempts: Int)
        case failed(FetchFailure)
    }

    /// A failed attempt that will be retried, for the log.
    struct RetryNotice: Sendable, Hashable {
        var attempt: Int
        var attempts: Int
        var problem: String
        var delay: Duration
    }

    var transport: any HTTPTransport
    var retry: RetryPolicy
    /// The limit for one attempt, from sending to the last body byte.
    var timeout: Duration
    var maxResponseBytes: Int
    /// A dotted path into the response JSON; `nil` keeps the whole document.
    var extract: String?
    var clock: any Clock<Duration>
    /// A random number in `0..<1` for backoff jitter.
    var jitter: @Sendable () -> Double
    /// The wall-clock time, for `Retry-After` dates.
    var now: @Sendable () -> Date
    var onRetry: @Sendable (RetryNotice) -> Void

    /// The outcome of sending `request`, or `nil` when the task was cancelled (a superseded
    /// `latest` request, or the plugin stopping): then nothing should be reported.
    func fetch(_ request: PreparedRequest) async -> Outcome? {
        var attempt = 0
        while true {
            attempt += 1
            let result = await send(request)
            if Task.isCancelled { return nil }
            let problem: RetryPolicy.Problem
            let failure: FetchFailure
            switch result {
            case .cancelled:
                return nil
            case .response(let response) where (200...299).contains(response.status):
                do {
                    let value = try ResponseDecoding.value(of: response, extract: extract, attempts: attempt)
                    return .loaded(value: value, status: response.status, attempts: attempt)
                } catch {
                    return .failed(error)
                }
            case .response(let response):
                problem = .status(response.status, retryAfter: response.headers["retry-after"])
                failure = FetchFailure(
                    kind: .http, status: response.status, message: ResponseDecoding.statusLine(response.status),
                    attempts: attempt)
            case .network(let message):
                problem = .network
                failure = FetchFailure(kind: .network, message: message, attempts: attempt)
            case .timedOut:
                problem = .timeout
                failure = FetchFailure(
                    kind: .timeout, message: "no complete response within \(Self.format(timeout))", attempts: attempt)
            case .tooLarge(let status):
                return .failed(
                    FetchFailure(
                        kind: .tooLarge, status: status,
                        message: "the response is larger than \(maxResponseBytes) bytes (maxResponseBytes)",
                        attempts: attempt))
            case .redirectRefused(let status, let reason):
                let message = "redirect refused: \(reason)"
                return .failed(FetchFailure(kind: .http, status: status, message: message, attempts: attempt))
            }
            switch retry.decision(after: problem, attempt: attempt, now: now(), jitter: jitter()) {
            case .giveUp:
                return .failed(attempt > 1 ? failure.withAttemptsNoted : failure)
            case .retry(let delay):
                onRetry(RetryNotice(attempt: attempt, attempts: retry.attempts, problem: failure.message, delay: delay))
                do {
                    try await clock.sleep(for: delay)
                } catch {
                    return nil
                }
            }
        }
    }

    private func send(_ request: PreparedRequest) async -> TransportResult {
        let transport = transport
        let clock = clock
        let timeout = timeout
        let limit = maxResponseBytes
        return await withTaskGroup(of: TransportResult?.self) { group in
            group.addTask { await transport.send(request, maxResponseBytes: limit, timeout: timeout) }
            group.addTask {
                do {
                    try await clock.sleep(for: timeout)
                    return .timedOut
                } catch {
                    return nil
                }
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first ?? .cancelled
        }
    }

    /// `5 s`, `0.25 s`.
    static func format(_ duration: Duration) -> String {
        let seconds = duration.secondsValue
        return seconds == seconds.rounded() ? "\(Int64(seconds)) s" : "\(((seconds * 1000).rounded()) / 1000) s"
    }
}

extension FetchFailure {
    fileprivate var withAttemptsNoted: FetchFailure {
        var copy = self
        copy.message += " (after \(attempts) attempts)"
        return copy
    }
}

extension Fetcher {
    /// A fetcher for `configuration`'s timeout, retry, size limit and extract path, with
    /// random jitter and the system time unless given.
    init(
        configuration: NetworkFetchConfiguration, transport: any HTTPTransport, clock: any Clock<Duration>,
        jitter: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
        now: @escaping @Sendable () -> Date = { Date() },
        onRetry: @escaping @Sendable (RetryNotice) -> Void
    ) {
        self.init(
            transport: transport, retry: configuration.retry, timeout: configuration.timeout,
            maxResponseBytes: configuration.maxResponseBytes, extract: configuration.extract, clock: clock,
            jitter: jitter, now: now, onRetry: onRetry)
    }
}
