import Glibc

/// A non-blocking connect on the loop: each resolved address in turn, each within a timeout,
/// without ever blocking the loop on a slow peer.
///
/// Host names are resolved with `getaddrinfo` on the loop's thread: numeric addresses and
/// `/etc/hosts` names cost nothing, a DNS name may hold the loop up for the resolver's time.
/// TCP sockets get `SO_KEEPALIVE`, so a peer that vanished is noticed.
package final class Connector: DescriptorHandler {
    /// What the attempt ended with: a connected, non-blocking, close-on-exec socket the
    /// completion now owns, or why no address connected (the last address's failure).
    package typealias Completion = (Result<Int32, IOError>) -> Void

    /// What the timeout bounds.
    package enum Budget: Sendable, Hashable {
        /// Each resolved address gets the whole timeout.
        case perAddress
        /// All addresses together must connect within the timeout.
        case total
    }

    private let endpoint: SocketEndpoint
    private let timeout: Duration
    private let deadline: ContinuousClock.Instant?
    private let noDelay: Bool
    private let thread: LoopThread
    private var completion: Completion?
    private var addresses: [(family: Int32, bytes: [UInt8])] = []
    private var socket: Int32 = -1
    private var registration: Registration?
    private var timer: TimerID?
    private var lastFailure: IOError

    private init(
        endpoint: SocketEndpoint, timeout: Duration, budget: Budget, noDelay: Bool, thread: LoopThread,
        completion: @escaping Completion
    ) {
        self.endpoint = endpoint
        self.timeout = timeout
        self.deadline = budget == .total ? thread.now.advanced(by: timeout) : nil
        self.noDelay = noDelay
        self.thread = thread
        self.completion = completion
        lastFailure = .resolve(endpoint.description, reason: "no addresses")
    }

    /// Starts connecting to `endpoint`; `completion` runs on the loop exactly once unless
    /// ``cancel()`` comes first (possibly before this returns, when no address needs waiting).
    /// `budget` (default ``Budget/perAddress``) says what `timeout` bounds; `noDelay` turns
    /// Nagle's algorithm off on TCP sockets, for protocols of small, latency-bound messages.
    @discardableResult
    package static func connect(
        to endpoint: SocketEndpoint, timeout: Duration, budget: Budget = .perAddress, noDelay: Bool = false,
        on thread: LoopThread, completion: @escaping Completion
    ) -> Connector {
        let connector = Connector(
            endpoint: endpoint, timeout: timeout, budget: budget, noDelay: noDelay, thread: thread, completion: completion)
        do {
            connector.addresses = try resolve(endpoint)
            connector.attemptNext()
        } catch {
            connector.finish(.failure(error))
        }
        return connector
    }

    /// Abandons the attempt: the socket under way is closed and the completion never runs.
    package func cancel() {
        completion = nil
        cleanUp(closing: true)
    }

    package func ready(_ events: IOEvents) {
        let code = Sockets.pendingError(socket)
        if code == 0 {
            let connected = socket
            cleanUp(closing: false)
            finish(.success(connected))
        } else {
            lastFailure = .system("connect", errno: code)
            cleanUp(closing: true)
            attemptNext()
        }
    }

    private func attemptNext() {
        while completion != nil, !addresses.isEmpty {
            let (family, bytes) = addresses.removeFirst()
            do {
                socket = try Sockets.stream(family: family)
            } catch {
                lastFailure = error
                continue
            }
            if family != AF_UNIX {
                var on: Int32 = 1
                _ = setsockopt(socket, SOL_SOCKET, SO_KEEPALIVE, &on, socklen_t(MemoryLayout<Int32>.size))
                if noDelay { _ = setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size)) }
            }
            let result = bytes.withUnsafeBytes {
                Glibc.connect(socket, $0.baseAddress?.assumingMemoryBound(to: sockaddr.self), socklen_t($0.count))
            }
            if result == 0 {
                let connected = socket
                socket = -1
                finish(.success(connected))
                return
            }
            let code = errno
            if code == EINPROGRESS || code == EINTR {
                do {
                    registration = try thread.register(socket, interest: .writable, handler: self)
                } catch {
                    lastFailure = error
                    cleanUp(closing: true)
                    continue
                }
                let timeout = self.timeout
                timer = thread.schedule(at: deadline ?? thread.now.advanced(by: timeout)) { [weak self] in
                    guard let self else { return }
                    self.timer = nil
                    self.lastFailure = .timedOut(after: timeout)
                    self.cleanUp(closing: true)
                    // With one budget for all addresses, the rest have no time left.
                    if self.deadline != nil { self.addresses.removeAll() }
                    self.attemptNext()
                }
                return
            }
            lastFailure = .system("connect", errno: code)
            cleanUp(closing: true)
        }
        finish(.failure(lastFailure))
    }

    private func cleanUp(closing: Bool) {
        if let registration { thread.deregister(registration) }
        registration = nil
        if let timer { thread.cancel(timer) }
        timer = nil
        if closing, socket >= 0 { Glibc.close(socket) }
        socket = -1
    }

    private func finish(_ result: Result<Int32, IOError>) {
        guard let completion else {
            if case .success(let descriptor) = result { Glibc.close(descriptor) }
            return
        }
        self.completion = nil
        completion(result)
    }

    private static func resolve(_ endpoint: SocketEndpoint) throws(IOError) -> [(family: Int32, bytes: [UInt8])] {
        switch endpoint {
        case .unix(let path):
            return [try UnixAddress.with(path) { address, length in
                (Int32(AF_UNIX), Array(UnsafeRawBufferPointer(start: address, count: Int(length))))
            }]
        case .tcp(let host, let port):
            var hints = addrinfo()
            hints.ai_family = AF_UNSPEC
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
            hints.ai_flags = AI_NUMERICSERV
            var list: UnsafeMutablePointer<addrinfo>?
            let status = getaddrinfo(host, String(port), &hints, &list)
            guard status == 0 else { throw IOError.resolve(host, reason: String(cString: gai_strerror(status))) }
            defer { freeaddrinfo(list) }
            var found: [(family: Int32, bytes: [UInt8])] = []
            var next = list
            while let info = next {
                next = info.pointee.ai_next
                guard let address = info.pointee.ai_addr else { continue }
                found.append((info.pointee.ai_family, Array(UnsafeRawBufferPointer(start: address, count: Int(info.pointee.ai_addrlen)))))
            }
            guard !found.isEmpty else { throw IOError.resolve(host, reason: "no addresses") }
            return found
        }
    }
}
