import FoundationEssentials

/// ``HTTPTransport`` on libcurl, loaded when the first network-fetch plugin starts (see
/// ``CurlDriver``): no cookies, no cache, no stored credentials.
///
/// Redirects to http(s) are followed up to `maxRedirects` by ``Redirection``, which drops
/// credential headers when a hop leaves the origin. Call ``shutDown()`` when the plugin stops.
final class CurlTransport: HTTPTransport {
    private let driver: Result<CurlDriver, CurlDriver.LoadFailure>
    private let maxRedirects: Int

    /// Loads libcurl, if no transport did yet; when it cannot, every request fails with kind
    /// `network` naming why (see ``unavailable``). The transport's thread ends after
    /// `idleExit` (default 10 s) without a request.
    init(maxRedirects: Int = 5, idleExit: Duration = .seconds(10)) {
        driver = CurlDriver.make(idleExit: idleExit)
        self.maxRedirects = maxRedirects
    }

    /// Why no request can be sent (libcurl is missing), or `nil`.
    var unavailable: String? {
        guard case .failure(let failure) = driver else { return nil }
        return failure.message
    }

    func send(_ request: PreparedRequest, maxResponseBytes: Int, timeout: Duration) async -> TransportResult {
        let driver: CurlDriver
        switch self.driver {
        case .success(let loaded): driver = loaded
        case .failure(let failure): return .network(failure.message)
        }
        if Task.isCancelled { return .cancelled }
        var redirection = Redirection(from: request, maxRedirects: maxRedirects)
        var current = request
        while true {
            switch await driver.perform(CurlDriver.Hop(request: current, limit: maxResponseBytes, timeout: timeout)) {
            case .finished(let result):
                return result
            case .redirect(let status, let location):
                switch redirection.follow(current, status: status, to: location) {
                case .success(let next): current = next
                case .failure(let refusal): return .redirectRefused(status: refusal.status, reason: refusal.reason)
                }
            }
        }
    }

    /// Whether the transport's thread runs now (`false` without libcurl).
    var isThreadRunning: Bool {
        guard case .success(let driver) = driver else { return false }
        return driver.isThreadRunning
    }

    /// Cancels outstanding transfers and frees the multi handle.
    func shutDown() {
        if case .success(let driver) = driver { driver.shutDown() }
    }
}
