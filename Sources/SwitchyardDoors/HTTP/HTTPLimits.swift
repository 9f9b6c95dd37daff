/// The bounds of the HTTP server; every parameter has a default that suits a dashboard and a
/// Prometheus scraper.
struct HTTPLimits: Sendable, Hashable {
    /// The longest request line (method, target, version) in bytes; longer gets 414.
    var maximumRequestLine = 8 << 10
    /// The most bytes of header fields (the request line excluded); more gets 431.
    var maximumHeaderBytes = 16 << 10
    /// The most header fields; more gets 431.
    var maximumHeaderCount = 100
    /// The largest body (`Content-Length`); larger gets 413 before any of it is read.
    var maximumBody = 1 << 20
    /// How many connections are served at once; one more gets 503 and is closed.
    var maximumConnections = 64
    /// How long a client may take to send a whole request once it began one (slow headers or
    /// body); then it gets 408 and is closed.
    var requestTimeout: Duration = .seconds(10)
    /// How long a kept-alive connection may wait for its next request before it is closed;
    /// by default shorter than ``requestTimeout``, so idle clients hold slots no longer than
    /// slow ones. When every slot is taken, the longest idle connection is closed for a new
    /// one before any client is refused.
    var idleTimeout: Duration = .seconds(5)
    /// How many bytes may wait for an event-stream client that does not read before it is
    /// dropped (and counted).
    var streamBufferBytes = 1 << 20
    /// How many bytes may wait for all event-stream clients together: past it, a client with
    /// more than ``streamBufferFloor`` unread is dropped, so a flood of clients that do not
    /// read costs at most this (plus the floor per client), however many connect.
    var streamBudgetBytes = 64 << 20
    /// What any event-stream client may have waiting whatever the others hold: one that keeps
    /// up stays below it and is never dropped for the others' sake.
    var streamBufferFloor = 64 << 10
    /// How many actions may wait for an event-stream client's task before it is dropped.
    var streamBufferActions = 8192
    /// Bytes of pipelined requests read ahead of the one being answered.
    var readAhead = 64 << 10

    /// The defaults.
    init() {}

    /// The defaults with what `settings` configure.
    init(settings: HTTPSettings) {
        maximumConnections = settings.maximumConnections
        requestTimeout = settings.requestTimeout
        idleTimeout = settings.idleTimeout
    }
}
