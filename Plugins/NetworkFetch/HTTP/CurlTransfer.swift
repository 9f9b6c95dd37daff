import CSwitchyardCurl
import FoundationEssentials
import SwitchyardIO

/// How one hop of a request ended: an answer for the caller, or a redirect to weigh.
enum HopOutcome: Sendable, Hashable {
    case finished(TransportResult)
    case redirect(status: Int, location: URL)
}

/// One request on the wire: its libcurl easy handle and what the response brought so far.
///
/// Confined to the ``CurlDriver``'s thread, which creates it, hands it to the multi handle,
/// and turns it into a ``HopOutcome`` when libcurl reports it done; libcurl calls back into it
/// on that thread while the driver runs the multi handle.
final class CurlTransfer {
    let easy: UnsafeMutableRawPointer
    private var headerList: UnsafeMutableRawPointer?
    private let url: URL
    private let limit: Int
    private var headers: [String: String] = [:]
    private var body: [UInt8] = []
    /// Set when the body would pass the limit; the transfer was then aborted.
    private var tooLarge = false

    /// Prepares the handle for `request`, with the body cut off past `limit` bytes and libcurl's
    /// own timeout at `timeout` plus a second (a backstop: the caller times out on its clock).
    /// Returns `nil` when libcurl cannot make a handle (out of memory).
    init?(_ request: PreparedRequest, limit: Int, timeout: Duration) {
        guard let easy = sycurl_easy_init() else { return nil }
        self.easy = easy
        self.url = request.url
        self.limit = limit
        _ = sycurl_setopt_long(easy, Int32(SYCURLOPT_NOSIGNAL), 1)
        _ = sycurl_setopt_long(easy, Int32(SYCURLOPT_PROTOCOLS), SYCURLPROTO_HTTP | SYCURLPROTO_HTTPS)
        _ = sycurl_setopt_long(easy, Int32(SYCURLOPT_FOLLOWLOCATION), 0)
        _ = sycurl_setopt_long(easy, Int32(SYCURLOPT_TIMEOUT_MS), Int((timeout + .seconds(1)).timeoutMilliseconds))
        setString(SYCURLOPT_URL, request.url.absoluteString)
        // "" asks for every encoding libcurl can decode, and decodes it, as URLSession does.
        setString(SYCURLOPT_ACCEPT_ENCODING, "")
        setString(SYCURLOPT_USERAGENT, "switchyard")
        setMethod(request.method, body: request.body)
        setHeaders(request.headers)
        let me = Unmanaged.passUnretained(self).toOpaque()
        _ = sycurl_setopt_pointer(easy, Int32(SYCURLOPT_WRITEDATA), me)
        _ = sycurl_setopt_data_callback(easy, Int32(SYCURLOPT_WRITEFUNCTION)) { data, size, count, context in
            Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue().received(data, size * count)
        }
        _ = sycurl_setopt_pointer(easy, Int32(SYCURLOPT_HEADERDATA), me)
        _ = sycurl_setopt_data_callback(easy, Int32(SYCURLOPT_HEADERFUNCTION)) { data, size, count, context in
            Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue().receivedHeader(data, size * count)
        }
    }

    /// Frees the handle; call once it left the multi handle.
    func close() {
        sycurl_easy_cleanup(easy)
        if let headerList { sycurl_slist_free_all(headerList) }
        headerList = nil
    }

    /// What the hop came to, given libcurl's result code for it.
    func outcome(code: Int32) -> HopOutcome {
        let status = Int(info(SYCURLINFO_RESPONSE_CODE))
        if tooLarge { return .finished(.tooLarge(status: status > 0 ? status : nil)) }
        let place = url.host.map { host in url.port.map { "\(host):\($0)" } ?? host } ?? "the server"
        switch Int(code) {
        case SYCURLE_OK:
            guard status > 0 else { return .finished(.network("\(place) sent no HTTP response")) }
            if Redirection.isRedirect(status), let location = redirectURL() {
                return .redirect(status: status, location: location)
            }
            return .finished(.response(HTTPResponse(status: status, headers: headers, body: body)))
        case SYCURLE_OPERATION_TIMEDOUT:
            return .finished(.timedOut)
        case SYCURLE_COULDNT_CONNECT:
            return .finished(.network("could not connect to \(place) (connection refused)"))
        case SYCURLE_COULDNT_RESOLVE_HOST, SYCURLE_COULDNT_RESOLVE_PROXY:
            return .finished(.network("could not resolve \(place)"))
        case SYCURLE_SEND_ERROR, SYCURLE_RECV_ERROR, SYCURLE_PARTIAL_FILE:
            return .finished(.network("the connection to \(place) was lost"))
        case SYCURLE_GOT_NOTHING:
            return .finished(.network("\(place) closed the connection without a response"))
        case SYCURLE_WEIRD_SERVER_REPLY, SYCURLE_BAD_CONTENT_ENCODING, SYCURLE_HTTP2, SYCURLE_HTTP2_STREAM:
            return .finished(.network("\(place) sent a malformed HTTP response (\(Self.describe(code)))"))
        case SYCURLE_SSL_CONNECT_ERROR, SYCURLE_PEER_FAILED_VERIFICATION, SYCURLE_SSL_CERTPROBLEM, SYCURLE_SSL_CIPHER,
            SYCURLE_SSL_CACERT_BADFILE, SYCURLE_SSL_PINNEDPUBKEYNOTMATCH, SYCURLE_SSL_INVALIDCERTSTATUS:
            return .finished(.network("the TLS connection to \(place) failed (\(Self.describe(code)))"))
        default:
            return .finished(.network("the request to \(place) failed (\(Self.describe(code)))"))
        }
    }

    private static func describe(_ code: Int32) -> String {
        "curl error \(code): \(String(cString: sycurl_strerror(code)))"
    }

    private func received(_ data: UnsafeMutablePointer<CChar>?, _ count: Int) -> Int {
        guard body.count + count <= limit else {
            tooLarge = true
            return 0  // anything but `count` aborts the transfer
        }
        if let data { body.append(contentsOf: UnsafeRawBufferPointer(start: data, count: count)) }
        return count
    }

    private func receivedHeader(_ data: UnsafeMutablePointer<CChar>?, _ count: Int) -> Int {
        guard let data else { return count }
        let line = String(decoding: UnsafeRawBufferPointer(start: data, count: count), as: UTF8.self)
        if line.hasPrefix("HTTP/") {
            headers = [:]  // a new response: an interim 100 came first
        } else if line == "\r\n" || line == "\n" {
            // The head is complete: refuse an announced body over the limit before it comes.
            let status = Int(info(SYCURLINFO_RESPONSE_CODE))
            if status >= 200, !Redirection.isRedirect(status), contentLength() > limit {
                tooLarge = true
                return 0
            }
        } else if let colon = line.firstIndex(of: ":") {
            let name = line[..<colon].trimmingSpaces().lowercased()
            let value = line[line.index(after: colon)...].trimmingWhitespace()
            headers[name] = headers[name].map { "\($0), \(value)" } ?? value
        }
        return count
    }

    private func setString(_ option: Int, _ value: String) {
        _ = value.withCString { sycurl_setopt_pointer(easy, Int32(option), $0) }  // libcurl copies it
    }

    private func setMethod(_ method: String, body: [UInt8]?) {
        if method == "HEAD" {
            _ = sycurl_setopt_long(easy, Int32(SYCURLOPT_NOBODY), 1)
        } else if method != "GET" || body != nil {
            if method != "POST" { setString(SYCURLOPT_CUSTOMREQUEST, method) }
            if let body {
                // COPYPOSTFIELDS copies the body, so the request need not outlive this call; the
                // size goes first so a body with NUL bytes is not cut at the first.
                _ = sycurl_setopt_offset(easy, Int32(SYCURLOPT_POSTFIELDSIZE_LARGE), Int64(body.count))
                _ = body.withUnsafeBytes { sycurl_setopt_pointer(easy, Int32(SYCURLOPT_COPYPOSTFIELDS), $0.baseAddress ?? UnsafeRawPointer(bitPattern: 1)) }
            } else if method == "POST" {
                _ = sycurl_setopt_offset(easy, Int32(SYCURLOPT_POSTFIELDSIZE_LARGE), 0)
                setString(SYCURLOPT_COPYPOSTFIELDS, "")
            }
        }
    }

    private func setHeaders(_ fields: [HTTPHeader]) {
        var list: UnsafeMutableRawPointer?
        // libcurl's syntax: "Name:" removes a header it would add, "Name;" sends an empty one.
        for field in fields {
            let line = field.value.isEmpty ? "\(field.name);" : "\(field.name): \(field.value)"
            list = line.withCString { sycurl_slist_append(list, $0) } ?? list
        }
        // No "Expect: 100-continue" before a body: a server that ignores it costs a second's wait.
        if !fields.contains(where: { $0.name.lowercased() == "expect" }) {
            list = sycurl_slist_append(list, "Expect:") ?? list
        }
        headerList = list
        _ = sycurl_setopt_pointer(easy, Int32(SYCURLOPT_HTTPHEADER), list)
    }

    private func info(_ item: Int) -> Int {
        var value = 0
        _ = sycurl_getinfo_long(easy, Int32(item), &value)
        return value
    }

    private func contentLength() -> Int64 {
        var value: Int64 = -1
        _ = sycurl_getinfo_offset(easy, Int32(SYCURLINFO_CONTENT_LENGTH_DOWNLOAD_T), &value)
        return value
    }

    private func redirectURL() -> URL? {
        var text: UnsafePointer<CChar>?
        guard sycurl_getinfo_string(easy, Int32(SYCURLINFO_REDIRECT_URL), &text) == 0, let text else { return nil }
        return URL(string: String(cString: text))
    }
}
