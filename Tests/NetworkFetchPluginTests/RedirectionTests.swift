import Foundation
import Testing

@testable import NetworkFetchPlugin

/// Following redirects, decided without a network.
struct RedirectionTests {
    private func request(_ method: String, _ url: String, body: [UInt8]? = nil) throws -> PreparedRequest {
        PreparedRequest(
            method: method, url: try #require(URL(string: url)),
            headers: [
                HTTPHeader(name: "Authorization", value: "Bearer t"), HTTPHeader(name: "X-Trace", value: "1"),
                HTTPHeader(name: "Content-Type", value: "application/json"),
            ],
            body: body)
    }

    /// 303 turns any method but HEAD into a body-less GET; 301 and 302 do so for POST only;
    /// 307 and 308 keep the method and the body.
    @Test(arguments: [
        (303, "POST", "GET", false), (303, "PUT", "GET", false), (303, "HEAD", "HEAD", false),
        (301, "POST", "GET", false), (302, "POST", "GET", false), (302, "PUT", "PUT", true),
        (307, "POST", "POST", true), (308, "PUT", "PUT", true), (301, "GET", "GET", false),
    ])
    func methodAndBodyAfterRedirect(status: Int, method: String, expected: String, keepsBody: Bool) throws {
        let sent = try request(method, "http://a.example/x", body: method == "GET" || method == "HEAD" ? nil : [1, 2])
        var redirection = Redirection(from: sent, maxRedirects: 5)
        let next = try redirection.follow(sent, status: status, to: #require(URL(string: "http://a.example/y"))).get()
        #expect(next.method == expected)
        #expect(next.url.absoluteString == "http://a.example/y")
        #expect((next.body != nil) == keepsBody)
        if sent.body != nil { #expect((next.header("Content-Type") != nil) == keepsBody) }
    }

    /// Credential headers stay within the scheme, host and port they were set for.
    @Test(arguments: [
        ("http://a.example/y", true), ("http://A.EXAMPLE:80/y", true), ("https://a.example/y", false),
        ("http://b.example/y", false), ("http://a.example:8080/y", false),
    ])
    func credentialsStayWithTheOrigin(target: String, keeps: Bool) throws {
        let sent = try request("GET", "http://a.example/x")
        var redirection = Redirection(from: sent, maxRedirects: 5)
        let next = try redirection.follow(sent, status: 302, to: #require(URL(string: target))).get()
        #expect((next.header("Authorization") != nil) == keeps)
        #expect(next.header("X-Trace") == "1")
    }

    /// Credentials dropped on leaving the origin do not come back on returning to it.
    @Test func credentialsDroppedOnceStayDropped() throws {
        let sent = try request("GET", "http://a.example/x")
        var redirection = Redirection(from: sent, maxRedirects: 5)
        let away = try redirection.follow(sent, status: 302, to: #require(URL(string: "http://b.example/y"))).get()
        let back = try redirection.follow(away, status: 302, to: #require(URL(string: "http://a.example/z"))).get()
        #expect(back.header("Authorization") == nil)
    }

    /// A target that is not http or https, and the hop past the limit, are refused with the
    /// redirect's status and a reason.
    @Test func refusals() throws {
        let sent = try request("GET", "http://a.example/x")
        var redirection = Redirection(from: sent, maxRedirects: 1)
        #expect(
            redirection.follow(sent, status: 301, to: try #require(URL(string: "ftp://a.example/f")))
                == .failure(Redirection.Refusal(status: 301, reason: "it leads to a ftp URL")))
        var limited = Redirection(from: sent, maxRedirects: 1)
        let first = try limited.follow(sent, status: 302, to: #require(URL(string: "http://a.example/1"))).get()
        #expect(
            limited.follow(first, status: 307, to: try #require(URL(string: "http://a.example/2")))
                == .failure(Redirection.Refusal(status: 307, reason: "more than 1 redirects")))
    }
}
