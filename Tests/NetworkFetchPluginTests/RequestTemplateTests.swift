import Foundation
import SwitchyardBus
import Testing

@testable import NetworkFetchPlugin

/// Building a request from its templates for one trigger.
struct RequestTemplateTests {
    private func template(
        url: String, headers: [(String, String)] = [], body: JSON? = nil, method: String = "GET"
    ) throws -> RequestTemplate {
        RequestTemplate(
            method: method, url: try TextTemplate(parsing: url),
            headers: try headers.map { RequestTemplate.Header(name: $0.0, value: try TextTemplate(parsing: $0.1)) },
            body: try body.map { try BodyTemplate(parsing: $0) })
    }

    /// URL placeholders are percent-encoded, default headers are added, and the body is
    /// serialized JSON.
    @Test func preparesARequest() throws {
        let request = try template(
            url: "https://api.example/search?q={payload.q}", headers: [("X-Lat", "{payload.lat}")],
            body: ["lat": "{payload.lat}"], method: "POST"
        ).prepare(in: TemplateScope(payload: ["q": "a b&c", "lat": 1.5], state: .emptyObject))
        #expect(request.method == "POST")
        #expect(request.url.absoluteString == "https://api.example/search?q=a%20b%26c")
        #expect(request.header("x-lat") == "1.5")
        #expect(request.header("Accept") == "application/json")
        #expect(request.header("Content-Type") == "application/json")
        #expect(request.body == Array(#"{"lat":1.5}"#.utf8))
    }

    /// Headers the settings name are not replaced by the defaults, and no body means no
    /// Content-Type.
    @Test func settingsHeadersWin() throws {
        let request = try template(url: "http://h/x", headers: [("accept", "text/plain")])
            .prepare(in: TemplateScope(payload: nil, state: nil))
        #expect(request.headers == [HTTPHeader(name: "accept", value: "text/plain")])
        #expect(request.body == nil)
    }

    /// A header value that would contain a line break is refused, so a payload cannot inject
    /// headers.
    @Test func refusesHeaderInjection() throws {
        let request = try template(url: "http://h/x", headers: [("X-Name", "{payload.name}")])
        #expect(throws: RequestPreparationError.invalidHeaderValue("X-Name")) {
            try request.prepare(in: TemplateScope(payload: ["name": "a\r\nEvil: 1"], state: nil))
        }
    }

    /// A missing value names the part of the request and the path.
    @Test func missingValueNamesThePart() throws {
        let request = try template(url: "http://h/x", headers: [("X-A", "{state.a}")])
        do {
            _ = try request.prepare(in: TemplateScope(payload: nil, state: .emptyObject))
            Issue.record("expected an error")
        } catch {
            #expect(error.path == "state.a")
            #expect(error.description == "headers.X-A: placeholder {state.a} has no value")
        }
    }

    /// Only templates that give absolute http(s) URLs pass validation.
    @Test(arguments: [
        ("https://example.org/x?a={payload.a}", true),
        ("http://127.0.0.1:8080/{payload.a}", true),
        ("https://{state.host}.example.org/", true),
        ("ftp://example.org/x", false),
        ("example.org/x", false),
        ("/relative/{payload.a}", false),
        ("https:///nohost", false),
        ("{payload.url}", false),
    ])
    func validatesURLShape(url: String, valid: Bool) throws {
        #expect(RequestTemplate.hasValidShape(try TextTemplate(parsing: url)) == valid)
    }

    /// Header names must be RFC 9110 tokens.
    @Test(arguments: [("X-API-Key", true), ("Accept", true), ("Bad Name", false), ("", false), ("a:b", false)])
    func validatesHeaderNames(name: String, valid: Bool) {
        #expect(RequestTemplate.isValidHeaderName(name) == valid)
    }
}
