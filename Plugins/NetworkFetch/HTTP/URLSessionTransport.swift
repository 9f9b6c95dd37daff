import SwitchyardIO
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// ``HTTPTransport`` on URLSession (FoundationNetworking on Linux).
///
/// One ephemeral session per running plugin: no cookies, no cache, no credential storage.
/// Redirects to http(s) are followed up to `maxRedirects`; credential headers are dropped when
/// a redirect changes origin. Call ``shutDown()`` when the plugin stops.
final class URLSessionTransport: HTTPTransport {
    private let session: URLSession
    private let delegate: TransferDelegate
    private let maxRedirects: Int

    /// Creates a session for up to `concurrency` requests at once, following up to
    /// `maxRedirects` redirects.
    ///
    /// The policy, not the session, bounds the requests in flight. The per-host connection
    /// limit is set well above `concurrency` because a cancelled request's connection may
    /// still be closing when the next request starts, and libcurl can leave a request that
    /// waits for a connection slot pending long after the slot frees up.
    init(concurrency: Int, maxRedirects: Int = 5) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.urlCache = nil
        configuration.urlCredentialStorage = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpMaximumConnectionsPerHost = max(concurrency, 1) + 8
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        delegate = TransferDelegate()
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: queue)
        self.maxRedirects = maxRedirects
    }

    func send(_ request: PreparedRequest, maxResponseBytes: Int, timeout: Duration) async -> TransportResult {
        if Task.isCancelled { return .cancelled }
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        urlRequest.timeoutInterval = timeout.secondsValue + 1
        for header in request.headers {
            urlRequest.addValue(header.value, forHTTPHeaderField: header.name)
        }
        if let body = request.body { urlRequest.httpBody = Data(body) }
        let task = session.dataTask(with: urlRequest)
        let identifier = task.taskIdentifier
        delegate.register(taskIdentifier: identifier, limit: maxResponseBytes, maxRedirects: maxRedirects)
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                if delegate.attach(taskIdentifier: identifier, continuation) {
                    task.resume()
                } else {
                    continuation.resume(returning: .cancelled)
                }
            }
        } onCancel: {
            delegate.callerCancelled(taskIdentifier: identifier)
            TransferDelegate.cancelSoon(task)
        }
    }

    /// Cancels outstanding transfers and releases the session (which holds its delegate
    /// until invalidated).
    func shutDown() {
        session.invalidateAndCancel()
    }
}
