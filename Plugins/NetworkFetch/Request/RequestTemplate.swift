import FoundationEssentials
import SwitchyardBus

/// What the plugin sends for each trigger: method, URL, headers and body, with placeholders.
struct RequestTemplate: Sendable {
    /// The methods a config may name.
    static let methods = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]

    struct Header: Sendable, Hashable {
        var name: String
        var value: TextTemplate
    }

    /// An upper-case method from ``methods``.
    var method: String
    /// The URL; placeholder values are percent-encoded.
    var url: TextTemplate
    /// Headers; placeholder values are inserted as they are (and refused with a line break).
    var headers: [Header]
    /// The JSON body; `nil` sends none.
    var body: BodyTemplate?

    /// Whether `url` has an `http` or `https` scheme and a host once placeholders are
    /// filled with plain text, checked when the config is validated.
    static func hasValidShape(_ url: TextTemplate) -> Bool {
        isHTTPURL(url.render(substituting: "x")) != nil
    }

    /// Whether `name` is a valid header name (an RFC 9110 token).
    static func isValidHeaderName(_ name: String) -> Bool {
        !name.isEmpty
            && name.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"):
                    return true
                default:
                    return "!#$%&'*+-.^_`|~".utf8.contains(byte)
                }
            }
    }

    /// Builds the request for one trigger. Adds `Accept: application/json`, and
    /// `Content-Type: application/json` for a body, unless the settings name those headers.
    ///
    /// - Throws: ``RequestPreparationError`` when a placeholder has no usable value, the URL
    ///   is not an absolute http(s) URL once filled, or a header value would contain a line
    ///   break. Nothing has been sent then.
    func prepare(in scope: TemplateScope) throws(RequestPreparationError) -> PreparedRequest {
        let urlText: String
        do {
            urlText = try url.render(in: scope) { PercentEncoding.encode($0) }
        } catch {
            throw RequestPreparationError(error, in: "url")
        }
        guard let resolvedURL = Self.isHTTPURL(urlText) else {
            throw .invalidURL(Redaction.redactedURL(urlText))
        }
        var resolvedHeaders: [HTTPHeader] = []
        for header in headers {
            let value: String
            do {
                value = try header.value.render(in: scope)
            } catch {
                throw RequestPreparationError(error, in: "headers.\(header.name)")
            }
            guard !value.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" }) else {
                throw .invalidHeaderValue(header.name)
            }
            resolvedHeaders.append(HTTPHeader(name: header.name, value: value))
        }
        var request = PreparedRequest(method: method, url: resolvedURL, headers: resolvedHeaders, body: nil)
        if request.header("Accept") == nil {
            request.headers.append(HTTPHeader(name: "Accept", value: "application/json"))
        }
        if let body {
            do {
                request.body = Array(try body.render(in: scope).serialized().utf8)
            } catch {
                throw RequestPreparationError(error, in: "body")
            }
            if request.header("Content-Type") == nil {
                request.headers.append(HTTPHeader(name: "Content-Type", value: "application/json"))
            }
        }
        return request
    }

    private static func isHTTPURL(_ text: String) -> URL? {
        guard let components = URLComponents(string: text),
            let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = components.host, !host.isEmpty,
            let url = components.url
        else { return nil }
        return url
    }
}
