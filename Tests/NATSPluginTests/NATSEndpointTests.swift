import Testing

@testable import NATSPlugin

/// Reading `nats://` URLs.
struct NATSEndpointTests {
    /// Hosts, ports, IPv6 and credentials are read; the description never shows a secret.
    @Test(arguments: [
        ("nats://127.0.0.1:4222", NATSEndpoint(host: "127.0.0.1", port: 4222), "nats://127.0.0.1:4222"),
        ("nats://demo.example", NATSEndpoint(host: "demo.example"), "nats://demo.example:4222"),
        (" NATS://h:1/ ", NATSEndpoint(host: "h", port: 1), "nats://h:1"),
        ("nats://[::1]:4333", NATSEndpoint(host: "::1", port: 4333), "nats://[::1]:4333"),
        ("nats://alice:p%40ss@h:5", NATSEndpoint(host: "h", port: 5, credentials: .user("alice", password: "p@ss")), "nats://h:5"),
        ("nats://s3cr3t@h", NATSEndpoint(host: "h", credentials: .token("s3cr3t")), "nats://h:4222"),
    ])
    func parses(_ text: String, _ expected: NATSEndpoint, _ description: String) throws {
        let endpoint = try NATSEndpoint(parsing: text)
        #expect(endpoint == expected)
        #expect(endpoint.description == description)
    }

    /// Bad URLs are errors that say what is wrong, without the credentials they contain.
    @Test(arguments: [
        ("127.0.0.1:4222", "expected a URL like nats://HOST:PORT, got \"127.0.0.1:4222\""),
        ("tls://h:4222", "tls:// is not supported (this client speaks plain TCP); use nats://"),
        ("http://h", "expected the scheme nats://, got \"http://\""),
        ("nats://", "the URL \"nats://\" names no host"),
        ("nats://h:0", "expected a port 1-65535, got \"0\""),
        ("nats://h:port", "expected a port 1-65535, got \"port\""),
        ("nats://u:secret@h/path", "a NATS URL has no path or query, got \"nats://***@h/path\""),
        ("nats://[::1", "an IPv6 address misses its closing \"]\" in \"nats://[::1\""),
        ("nats://:secret@h", "the URL has a password but no user"),
        ("nats://u:%zz@h", "a \"%\" in the URL's credentials is not followed by two hex digits"),
    ])
    func rejects(_ text: String, _ message: String) {
        #expect(throws: NATSEndpoint.ParseError(description: message)) {
            try NATSEndpoint(parsing: text)
        }
    }
}
