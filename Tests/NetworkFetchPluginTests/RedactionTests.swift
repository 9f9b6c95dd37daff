import Foundation
import Testing

@testable import NetworkFetchPlugin

/// Keeping credentials out of logged and emitted text.
struct RedactionTests {
    /// Key- and token-like query values and user info are masked; other parts stay.
    @Test(arguments: [
        ("https://h/x?q=1", "https://h/x?q=1"),
        ("https://h/x?key=abc&q=1", "https://h/x?key=***&q=1"),
        ("https://h/x?api_key=abc&apiKey=d&access_token=e&token=f&sig=g&page=2", "https://h/x?api_key=***&apiKey=***&access_token=***&token=***&sig=***&page=2"),
        ("https://h/x?api%5Fkey=abc", "https://h/x?api%5Fkey=***"),
        ("https://user:pass@h/x", "https://***@h/x"),
        ("https://tok@h:8080/x?a", "https://***@h:8080/x?a"),
        ("https://h/x?token=abc#frag", "https://h/x?token=***#frag"),
        ("https://h/x?flag&key=v", "https://h/x?flag&key=***"),
        ("https://h/path@at", "https://h/path@at"),
    ])
    func redactsURLs(url: String, redacted: String) {
        #expect(Redaction.redactedURL(url) == redacted)
    }

    /// Credential-like header names are recognised case-insensitively.
    @Test(arguments: [
        ("Authorization", true), ("proxy-authorization", true), ("X-API-Key", true), ("Api-Key", true),
        ("X-Auth-Token", true), ("Cookie", true), ("X-Client-Secret", true),
        ("Accept", false), ("Content-Type", false), ("X-Trace", false),
    ])
    func recognisesCredentialHeaders(name: String, sensitive: Bool) {
        #expect(Redaction.isSensitiveHeader(name) == sensitive)
    }

    /// The concrete secrets of a request are found and scrubbed from free text.
    @Test func scrubsTheSecretsARequestCarries() throws {
        let request = PreparedRequest(
            method: "GET", url: try #require(URL(string: "https://me:hunter22@h/x?api_key=k%2Fey-1234&q=visible")),
            headers: [HTTPHeader(name: "Authorization", value: "Bearer tok-5678"), HTTPHeader(name: "X-Trace", value: "trace-0001")],
            body: nil)
        let secrets = Redaction.secrets(of: request)
        let text = "failed: Bearer tok-5678 / tok-5678 / k/ey-1234 / k%2Fey-1234 / hunter22 / trace-0001 / visible"
        #expect(Redaction.scrub(text, secrets: secrets) == "failed: *** / *** / *** / *** / *** / trace-0001 / visible")
    }

    /// Very short values are not scrubbed: masking every "1" would destroy messages.
    @Test func leavesShortValuesAlone() {
        #expect(Redaction.scrub("HTTP 500 after 1 attempt", secrets: ["1", "ab"]) == "HTTP 500 after 1 attempt")
    }
}
