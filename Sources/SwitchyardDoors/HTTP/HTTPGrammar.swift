import FoundationEssentials

/// The RFC 9110/9112 grammar the request parser checks: tokens, the request line, a header
/// field, and how a body is framed.
extension HTTPRequestParser {
    /// `tchar` of RFC 9110 §5.6.2.
    static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }

    /// `METHOD SP request-target SP HTTP-version`, with single spaces.
    static func parseRequestLine(_ line: ArraySlice<UInt8>) -> Result<HTTPRequest, HTTPFailure> {
        let parts = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard parts.count == 3 else {
            return .failure(.badRequest("the request line must be METHOD, target and HTTP version separated by single spaces"))
        }
        let method = parts[0], target = parts[1], version = parts[2]
        guard !method.isEmpty, method.allSatisfy(isTokenCharacter) else {
            return .failure(.badRequest("the method is not a token"))
        }
        guard let first = target.first, first == UInt8(ascii: "/") || (target.count == 1 && first == UInt8(ascii: "*")),
              target.allSatisfy({ $0 > 0x20 && $0 < 0x7F })
        else {
            return .failure(.badRequest("the request target must be a path such as /api/state (origin form, printable ASCII)"))
        }
        let versionText = String(decoding: version, as: UTF8.self)
        let minor: Int
        switch versionText {
        case "HTTP/1.1": minor = 1
        case "HTTP/1.0": minor = 0
        default:
            let bytes = Array(version)
            let digit = { (byte: UInt8) in byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
            if bytes.count == 8, versionText.hasPrefix("HTTP/"), digit(bytes[5]), bytes[6] == UInt8(ascii: "."), digit(bytes[7]) {
                return .failure(.unsupportedVersion(versionText))
            }
            return .failure(.badRequest("the request line does not end with an HTTP version such as HTTP/1.1"))
        }
        return .success(HTTPRequest(method: String(decoding: method, as: UTF8.self),
                                    target: String(decoding: target, as: UTF8.self), minorVersion: minor))
    }

    /// `field-name ":" OWS field-value OWS`; no whitespace before the colon, no line folding,
    /// no control characters but tab in the value.
    static func parseHeader(_ line: ArraySlice<UInt8>) -> Result<(name: String, value: String), HTTPFailure> {
        if let first = line.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") {
            return .failure(.badRequest("obsolete header line folding is not accepted"))
        }
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
            return .failure(.badRequest("a header line has no colon"))
        }
        let name = line[line.startIndex..<colon]
        guard !name.isEmpty, name.allSatisfy(isTokenCharacter) else {
            return .failure(.badRequest("a header name is empty or not a token (no spaces before the colon)"))
        }
        var value = line[(colon + 1)...]
        while let first = value.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") { value = value.dropFirst() }
        while let last = value.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") { value = value.dropLast() }
        guard value.allSatisfy({ $0 == UInt8(ascii: "\t") || ($0 >= 0x20 && $0 != 0x7F) }) else {
            return .failure(.badRequest("the value of header \(String(decoding: name, as: UTF8.self)) holds a control character"))
        }
        return .success((String(decoding: name, as: UTF8.self).lowercased(), String(decoding: value, as: UTF8.self)))
    }

    /// The body's length from the header fields, or why the request cannot be read.
    func framing(of request: HTTPRequest) -> Result<Int, HTTPFailure> {
        let hosts = request.headers.filter { $0.name == "host" }
        if request.minorVersion == 1, hosts.count != 1 {
            return .failure(.badRequest(hosts.isEmpty ? "an HTTP/1.1 request needs a Host header" : "more than one Host header"))
        }
        if let coding = request.header("transfer-encoding") {
            if coding.lowercased().contains("chunked") { return .failure(.chunkedBody) }
            return .failure(.unsupportedTransferEncoding(coding))
        }
        if let expectation = request.header("expect"), expectation.lowercased() != "100-continue" {
            return .failure(.unsupportedExpectation(expectation))
        }
        guard let lengthText = request.header("content-length") else { return .success(0) }
        // Repeated (or comma-listed) lengths are accepted only when they all agree (RFC 9112 §6.3).
        let values = Set(lengthText.split(separator: ",").map { $0.trimmingSpaces() })
        guard values.count == 1, let text = values.first, !text.isEmpty, text.utf8.count <= 18,
              text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }), let length = Int(text)
        else {
            return .failure(.badRequest("Content-Length must be one decimal number, got \(lengthText)"))
        }
        guard length <= limits.maximumBody else { return .failure(.bodyTooLarge(length: length, limit: limits.maximumBody)) }
        return .success(length)
    }
}
