import Foundation
import SwitchyardTestSupport
import Testing

/// The HTTP server's defences on the real executable: malformed requests, size limits, slow
/// clients, the connection limit, keep-alive and pipelining, and the token.
@Suite(.serialized)
struct HTTPLimitTests {
    /// Each malformed or oversized request gets its status and a plain-text reason, and the
    /// connection closes; the server goes on serving.
    @Test(.scaledTimeLimit(minutes: 2)) func badRequests() async throws {
        let (bus, port) = try await RunningBus.startServingHTTP()
        let cases: [(String, Int)] = [
            ("GARBAGE\r\n\r\n", 400),
            ("GET /healthz HTTP/1.1\r\n\r\n", 400),
            ("GET /healthz HTTP/3.0\r\nHost: 127.0.0.1\r\n\r\n", 505),
            ("GET /" + String(repeating: "a", count: 9000) + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", 414),
            ("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + String(repeating: "b", count: 17000) + "\r\n\r\n", 431),
            ("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n" + String(repeating: "X-A: b\r\n", count: 101) + "\r\n", 431),
            ("POST /api/dispatch HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2000000\r\n\r\n", 413),
            ("POST /api/dispatch HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n", 411),
            ("POST /api/dispatch HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: gzip\r\n\r\n", 501),
            ("DELETE /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", 405),
        ]
        for (request, status) in cases {
            let (response, closed) = try await onThread { () throws -> (HTTPTestClient.Response?, Bool) in
                let client = try HTTPTestClient(port: port)
                client.send(request)
                let response = client.readResponse()
                return (response, status == 405 || client.closes())
            }
            #expect(response?.status == status, "\(request.prefix(60)): \(response?.text ?? "no response")")
            #expect(response.map { !$0.body.isEmpty } == true)
            #expect(closed, "\(request.prefix(60)) left the connection open")
        }
        let health = try await onThread { try HTTPTestClient.request(port: port, "GET", "/healthz") }
        #expect(health.status == 200)
        #expect(await bus.stop() == 0)
    }

    /// Keep-alive serves many requests on one connection; pipelined requests are answered in
    /// order; `Connection: close` closes after its response.
    @Test(.scaledTimeLimit(minutes: 2)) func keepAliveAndPipelining() async throws {
        let (bus, port) = try await RunningBus.startServingHTTP()
        let statuses = try await onThread { () throws -> ([Int], Bool) in
            let client = try HTTPTestClient(port: port)
            client.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            var statuses = [client.readResponse()?.status ?? 0]
            client.send("GET /api/state?path=nope HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nPOST /api/dispatch HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + "Content-Length: 16\r\n\r\n{\"type\":\"a/b\"}\r\nGET /readyz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            for _ in 0..<3 { statuses.append(client.readResponse()?.status ?? 0) }
            return (statuses, client.closes())
        }
        #expect(statuses.0 == [200, 404, 200, 200])
        #expect(statuses.1)
        #expect(await bus.stop() == 0)
    }

    /// A client that sends half a request and stalls gets 408 after the request timeout and
    /// is closed; an idle keep-alive connection stays until the idle timeout.
    @Test(.scaledTimeLimit(minutes: 2)) func slowHeadersTimeOut() async throws {
        let (bus, port) = try await RunningBus.startServingHTTP(http: #""requestTimeout": 0.5"#)
        let response = try await onThread { () throws -> HTTPTestClient.Response? in
            let client = try HTTPTestClient(port: port)
            client.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            return client.readResponse()
        }
        #expect(response?.status == 408)
        let stats = try await onThread { try HTTPTestClient.request(port: port, "GET", "/api/stats") }
        #expect(((stats.json["stats"] as? [String: Any])?["http"] as? [String: Any])?["timedOut"] as? Int == 1)
        #expect(await bus.stop() == 0)
    }

    /// Past `maxConnections` of busy connections, a new connection gets 503 with Retry-After
    /// and is closed; once one closes, connections are served again.
    @Test(.scaledTimeLimit(minutes: 2)) func connectionLimit() async throws {
        let (bus, port) = try await RunningBus.startServingHTTP(http: #""maxConnections": 2, "requestTimeout": 600"#)
        let held = try await onThread { try [HTTPTestClient(port: port), HTTPTestClient(port: port)] }
        // Each held connection is admitted once it answers a request, then kept busy with
        // half a request (an idle one would make room for the new client).
        for client in held {
            let status = try await onThread { () -> Int? in
                client.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                defer { client.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n") }
                return client.readResponse()?.status
            }
            #expect(status == 200)
        }
        let refused = try await onThread { () throws -> (HTTPTestClient.Response?, Bool) in
            let client = try HTTPTestClient(port: port)
            let response = client.readResponse()
            return (response, client.closes())
        }
        #expect(refused.0?.status == 503)
        #expect(refused.0?.headers["retry-after"] == "1")
        #expect(refused.1)
        _ = held.first.map { $0.send("Connection: close\r\n\r\n") }
        let servedAgain = await eventually(interval: .milliseconds(50)) {
            (try? await onThread { try HTTPTestClient.request(port: port, "GET", "/healthz") })?.status == 200
        }
        #expect(servedAgain)
        #expect(await bus.stop() == 0)
    }

    /// With a token, every endpoint but the probes needs it: a bearer header, or `?token=`
    /// once, which sets an HttpOnly cookie that then suffices.
    @Test(.scaledTimeLimit(minutes: 2)) func token() async throws {
        let token = "s3cret-token-for-tests"
        let (bus, port) = try await RunningBus.startServingHTTP(http: #""token": "${SWITCHYARD_HTTP_TOKEN}""#,
                                                               environment: ["SWITCHYARD_HTTP_TOKEN": token])
        let denied = try await onThread { try HTTPTestClient.request(port: port, "GET", "/api/state") }
        #expect(denied.status == 401)
        #expect(denied.headers["www-authenticate"]?.hasPrefix("Bearer") == true)
        let wrong = try await onThread { try HTTPTestClient.request(port: port, "GET", "/metrics", headers: ["Authorization": "Bearer nope"]) }
        #expect(wrong.status == 401)
        let bearer = try await onThread { try HTTPTestClient.request(port: port, "GET", "/api/state", headers: ["Authorization": "Bearer \(token)"]) }
        #expect(bearer.status == 200)
        let query = try await onThread { try HTTPTestClient.request(port: port, "GET", "/api/stats?token=\(token)") }
        #expect(query.status == 200)
        let cookie = try #require(query.headers["set-cookie"])
        #expect(cookie.contains("HttpOnly"))
        let pair = String(cookie.prefix { $0 != ";" })
        let withCookie = try await onThread { try HTTPTestClient.request(port: port, "GET", "/", headers: ["Cookie": "other=1; \(pair)"]) }
        #expect(withCookie.status == 200)
        #expect(withCookie.headers["content-type"]?.hasPrefix("text/html") == true)
        for probe in ["/healthz", "/readyz"] {
            let response = try await onThread { try HTTPTestClient.request(port: port, "GET", probe) }
            #expect(response.status == 200, "\(probe)")
        }
        // The token never reaches the log.
        #expect(!bus.process.stderr.contains(token))
        #expect(await bus.stop() == 0)
    }

    /// Listening off loopback without a token, a malformed address, a tile template that is
    /// not an http(s) URL with {z}, {x} and {y}, a host that is not a name or address, or
    /// any host without a token is a configuration error naming the key.
    @Test(arguments: [
        (#"{"listen": "0.0.0.0:8080"}"#, "bus.http.token"),
        (#"{"listen": "localhost"}"#, "bus.http.listen"),
        (#"{"listen": "example.com:80"}"#, "bus.http.listen"),
        (#"{"listen": "127.0.0.1:70000"}"#, "bus.http.listen"),
        (#"{"listen": "127.0.0.1:8080", "token": ""}"#, "bus.http.token"),
        (#"{"listen": "127.0.0.1:8080", "maxConnections": 0}"#, "bus.http.maxConnections"),
        (#"{"listen": "127.0.0.1:8080", "colour": 1}"#, "bus.http.colour"),
        (#"{"listen": "127.0.0.1:8080", "tiles": "javascript:alert(1)/{z}/{x}/{y}"}"#, "bus.http.tiles"),
        (#"{"listen": "127.0.0.1:8080", "tiles": "https://tiles.example/{z}/{x}.png"}"#, "bus.http.tiles"),
        (#"{"listen": "127.0.0.1:8080", "tiles": "https://tiles.example/{z}/{x}/{y}.png\"><script>"}"#, "bus.http.tiles"),
        (#"{"listen": "127.0.0.1:8080", "hosts": ["bus.lan", "http://bus.lan/"]}"#, "bus.http.hosts[1]"),
        (#"{"listen": "127.0.0.1:8080", "hosts": ["*"]}"#, "bus.http.hosts"),
        (#"{"listen": "127.0.0.1:8080", "idleTimeout": 0}"#, "bus.http.idleTimeout"),
    ])
    func invalidConfiguration(http: String, key: String) async throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("config.json", #"{"bus": {"http": \#(http)}, "plugins": []}"#)
        let process = try SwitchyardProcess(["validate", path], directory: directory.url)
        #expect(await process.exitStatus() == 78)
        #expect(process.stderr.contains(key), "\(process.stderr)")
    }

    /// Two buses cannot listen on one port: the second fails to start and says why.
    @Test(.scaledTimeLimit(minutes: 2)) func portInUse() async throws {
        let (bus, port) = try await RunningBus.startServingHTTP()
        let directory = try TemporaryDirectory()
        let path = try directory.write("config.json", #"{"bus": {"name": "second", "dataDirectory": "data", "http": {"listen": "127.0.0.1:\#(port)"}}, "plugins": []}"#)
        let second = try SwitchyardProcess(["run", path], directory: directory.url)
        #expect(await second.exitStatus() != 0)
        #expect(second.stderr.contains("bus.http.listen"), "\(second.stderr)")
        #expect(await bus.stop() == 0)
    }
}
