import Foundation
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The URLSession delegate behind ``URLSessionTransport``: collects each task's response under
/// a lock, enforces the body limit while data arrives, vets redirects, and resumes the waiting
/// caller exactly once, whether the task completes or the caller is cancelled first.
///
/// FoundationNetworking on Linux ignores the disposition passed to the response handler and
/// ignores `cancel()` called from a delegate callback, so an oversized transfer is stopped by
/// cancelling the task from another queue. Its socket reads share a serial queue with that
/// cancel, so on a fast link more data arrives before the cancel takes effect; the caller is
/// answered at the limit and every later byte is discarded, never buffered.
///
/// That queue is one for every URLSession of the process (FoundationNetworking 6.3), and a
/// transfer whose socket always has data when libcurl looks keeps it: libcurl asks to run again
/// at once, and libdispatch drains a queue until it is empty. Until the cut-off transfer's
/// data stops outrunning the reader, every other request of the process waits, its own cancel
/// included, and so does its timeout, a timer on that same queue: a peer that keeps sending
/// faster than this process reads holds every URLSession of the bus.
final class TransferDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private struct Transfer {
        var limit: Int
        var maxRedirects: Int
        var redirects = 0
        var status: Int?
        var headers: [String: String] = [:]
        var body: [UInt8] = []
        /// Set when a redirect was refused; the task then completes with the redirect response.
        var verdict: TransportResult?
        var continuation: CheckedContinuation<TransportResult, Never>?
        var callerCancelled = false
    }

    private let transfers = Mutex<[Int: Transfer]>([:])

    /// Registers a task before it is resumed, so no callback finds it unknown.
    func register(taskIdentifier: Int, limit: Int, maxRedirects: Int) {
        transfers.withLock { $0[taskIdentifier] = Transfer(limit: limit, maxRedirects: maxRedirects) }
    }

    /// Stores the caller's continuation; `false` when the caller was cancelled already, in
    /// which case the continuation is not stored and the caller resumes it itself.
    func attach(taskIdentifier: Int, _ continuation: CheckedContinuation<TransportResult, Never>) -> Bool {
        transfers.withLock { transfers in
            guard let transfer = transfers[taskIdentifier], !transfer.callerCancelled else {
                transfers[taskIdentifier] = nil
                return false
            }
            transfers[taskIdentifier]?.continuation = continuation
            return true
        }
    }

    /// Resumes the caller with ``TransportResult/cancelled`` and forgets the task; later
    /// callbacks for it are ignored.
    func callerCancelled(taskIdentifier: Int) {
        let continuation = transfers.withLock { transfers -> CheckedContinuation<TransportResult, Never>? in
            guard var transfer = transfers[taskIdentifier] else { return nil }
            guard let continuation = transfer.continuation else {
                transfer.callerCancelled = true
                transfers[taskIdentifier] = transfer
                return nil
            }
            transfers[taskIdentifier] = nil
            return continuation
        }
        continuation?.resume(returning: .cancelled)
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        let http = response as? HTTPURLResponse
        let (tooLarge, caller) = transfers.withLock { transfers -> (Bool, CheckedContinuation<TransportResult, Never>?) in
            guard var transfer = transfers[dataTask.taskIdentifier] else { return (false, nil) }
            transfer.status = http?.statusCode
            transfer.headers = Self.headers(of: http)
            guard response.expectedContentLength > Int64(transfer.limit) else {
                transfers[dataTask.taskIdentifier] = transfer
                return (false, nil)
            }
            transfers[dataTask.taskIdentifier] = nil
            return (true, transfer.continuation)
        }
        completionHandler(tooLarge ? .cancel : .allow)
        if tooLarge {
            caller?.resume(returning: .tooLarge(status: http?.statusCode))
            Self.cancelSoon(dataTask)
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let (tooLarge, caller, status) = transfers.withLock {
            transfers -> (Bool, CheckedContinuation<TransportResult, Never>?, Int?) in
            guard var transfer = transfers[dataTask.taskIdentifier] else { return (false, nil, nil) }
            guard transfer.body.count + data.count > transfer.limit else {
                transfer.body.append(contentsOf: data)
                transfers[dataTask.taskIdentifier] = transfer
                return (false, nil, nil)
            }
            transfers[dataTask.taskIdentifier] = nil
            return (true, transfer.continuation, transfer.status)
        }
        if tooLarge {
            caller?.resume(returning: .tooLarge(status: status))
            Self.cancelSoon(dataTask)
        }
    }

    /// Cancels `task` from a queue of its own: FoundationNetworking ignores a cancel issued on
    /// the delegate queue, and its `cancel()` waits for the process-wide URLSession queue, which
    /// a fast transfer can hold for seconds. A serial queue gets an overcommit thread (one is
    /// started when none is free), so a waiting cancel never holds one of the few threads of
    /// the global pool, which Swift concurrency's jobs run on too.
    static func cancelSoon(_ task: URLSessionTask) {
        cancelling.async { task.cancel() }
    }

    private static let cancelling = DispatchQueue(label: "switchyard.network-fetch.cancel")

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        let refusal = transfers.withLock { transfers -> String? in
            guard var transfer = transfers[task.taskIdentifier] else { return "the request was cancelled" }
            transfer.redirects += 1
            var reason: String?
            let scheme = request.url?.scheme?.lowercased()
            if scheme != "http" && scheme != "https" {
                reason = "it leads to a \(scheme ?? "schemeless") URL"
            } else if transfer.redirects > transfer.maxRedirects {
                reason = "more than \(transfer.maxRedirects) redirects"
            }
            if let reason { transfer.verdict = .redirectRefused(status: response.statusCode, reason: reason) }
            transfers[task.taskIdentifier] = transfer
            return reason
        }
        guard refusal == nil else {
            completionHandler(nil)
            return
        }
        completionHandler(Self.withoutCrossOriginCredentials(request, original: task.originalRequest))
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let finished = transfers.withLock { transfers in transfers.removeValue(forKey: task.taskIdentifier) }
        guard let transfer = finished, let continuation = transfer.continuation else { return }
        let result: TransportResult
        if let verdict = transfer.verdict {
            result = verdict
        } else if let error {
            result = Self.result(for: error, url: task.originalRequest?.url)
        } else if let status = transfer.status {
            result = .response(HTTPResponse(status: status, headers: transfer.headers, body: transfer.body))
        } else {
            result = .network("the server sent no HTTP response")
        }
        continuation.resume(returning: result)
    }

    /// Drops credential headers when a redirect leaves the original scheme, host and port, so a
    /// token meant for one server is not handed to another.
    private static func withoutCrossOriginCredentials(_ request: URLRequest, original: URLRequest?) -> URLRequest {
        guard let target = request.url, let source = original?.url, !sameOrigin(target, source) else { return request }
        var stripped = request
        for name in (request.allHTTPHeaderFields ?? [:]).keys where Redaction.isSensitiveHeader(name) {
            stripped.setValue(nil, forHTTPHeaderField: name)
        }
        return stripped
    }

    private static func sameOrigin(_ first: URL, _ second: URL) -> Bool {
        first.scheme?.lowercased() == second.scheme?.lowercased() && first.host?.lowercased() == second.host?.lowercased()
            && effectivePort(first) == effectivePort(second)
    }

    private static func effectivePort(_ url: URL) -> Int? {
        url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80)
    }

    private static func headers(of response: HTTPURLResponse?) -> [String: String] {
        var headers: [String: String] = [:]
        for (key, value) in response?.allHeaderFields ?? [:] {
            if let name = key as? String, let text = value as? String { headers[name.lowercased()] = text }
        }
        return headers
    }

    private static func result(for error: any Error, url: URL?) -> TransportResult {
        let place = url.flatMap { url in url.host.map { host in url.port.map { "\(host):\($0)" } ?? host } } ?? "the server"
        guard let urlError = error as? URLError else { return .network("the request to \(place) failed") }
        switch urlError.code {
        case .timedOut: return .timedOut
        case .cancelled: return .cancelled
        case .cannotConnectToHost: return .network("could not connect to \(place) (connection refused)")
        case .cannotFindHost, .dnsLookupFailed: return .network("could not resolve \(place)")
        case .networkConnectionLost: return .network("the connection to \(place) was lost")
        case .notConnectedToInternet: return .network("no network connection to reach \(place)")
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
            .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot:
            return .network("the TLS connection to \(place) failed (\(urlError.code.rawValue))")
        case .badServerResponse, .cannotParseResponse: return .network("\(place) sent a malformed HTTP response")
        case .httpTooManyRedirects: return .redirectRefused(status: nil, reason: "too many redirects")
        default: return .network("the request to \(place) failed (URL error \(urlError.code.rawValue))")
        }
    }
}
