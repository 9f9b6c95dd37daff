import Foundation
import Glibc
import Synchronization
import SwitchyardTestSupport
import Testing
@testable import SwitchyardIO

/// The acceptor near and at the descriptor limit. Each scenario lowers `RLIMIT_NOFILE`, which
/// is the whole process's, so it runs in a child process of its own (an exit test) and the
/// tests running in parallel in this one keep their descriptors.
struct AcceptorLimitTests {
    /// A connection that would leave fewer than ``Acceptor/headroom`` descriptors free is
    /// refused like one taken with the spare; at the limit itself the spare refuses each
    /// waiting client, also when something else took the slot the last refusal freed; once
    /// descriptors are free again, connections are accepted.
    @Test func refusesBeforeTheLastDescriptorsAndAcceptsAgain() async {
        let report = AcceptorAtTheLimit.reportPath(parent: getpid())
        defer { unlink(report) }
        let passed = await #expect(processExitsWith: .success) {
            // Dispatch must not open a descriptor under the count the scenario sets (a client
            // refused for it would look like the acceptor's fault): what it opens lazily is
            // opened first, and no pool thread is held while the scenario runs.
            await openDispatchDescriptorsNow()
            await onThread { AcceptorAtTheLimit.run() }
        }
        if passed == nil {
            Issue.record("the child said: \((try? String(contentsOfFile: report, encoding: .utf8)) ?? "nothing")")
        }
    }
}

/// The scenario, run in the exit test's child: one acceptor on a Unix socket, clients created
/// before the limit is lowered (so connecting needs no descriptor on their side), and
/// `/dev/null` descriptors filling the table to set exactly how many are free.
private enum AcceptorAtTheLimit {
    /// What the acceptor reported, in order; a failure says it too.
    static let events = Recorder<String>()

    static func run() {
        let path = temporaryPath("limit")
        defer { unlink(path) }
        guard let listener = try? listen(unixPath: path), let loop = try? EventLoop(name: "test.limit") else {
            fail("cannot set up the listener and the loop: \(String(cString: strerror(errno)))")
        }
        let accepted = Recorder<Int32>()
        loop.execute { thread in
            do {
                // The loop keeps the acceptor alive while its listener is registered.
                _ = try Acceptor(listener: listener, on: thread, pause: .milliseconds(20)) { event in
                    switch event {
                    case .connection(let descriptor):
                        accepted.append(descriptor)
                        events.append("connection")
                    case .outOfDescriptors(_, let refused?):
                        _ = "refused\n".withCString { Glibc.send(refused, $0, 8, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
                        Glibc.close(refused)
                        events.append("refused")
                    case .outOfDescriptors(_, nil):
                        events.append("waiting client not refused")
                    case .failed(let code):
                        events.append("failed \(code)")
                    }
                }
                events.append("accepting")
            } catch {
                events.append("no acceptor: \(error)")
            }
        }
        wait("the acceptor to start") { events.count == 1 }
        guard events.all == ["accepting"] else { fail("\(events.all)") }
        let clients = (0..<6).map { _ in socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0) }
        guard clients.allSatisfy({ $0 >= 0 }) else { fail("cannot make the client sockets") }

        var table = DescriptorTable()
        // Three free: the first client leaves two, enough; the second would leave one.
        table.leave(free: Acceptor.headroom + 1)
        connect(clients[0], to: path)
        wait("the first client to be accepted") { events.all.last == "connection" }
        connect(clients[1], to: path)
        expectRefused(clients[1], "the client that would leave one descriptor free")

        // Free again: the next client is accepted.
        for descriptor in accepted.all { Glibc.close(descriptor) }
        connect(clients[2], to: path)
        wait("a client to be accepted once descriptors are free") { accepted.count == 2 }

        // None free: the spare refuses the waiting client, and again once the spare is back.
        // The acceptor reopens it in the slot the refused client freed, right after its owner
        // closed that client; the filler must not take the slot first (the client sees the
        // close before the loop has reopened the spare), so the loop finishes its turn first.
        table.fill()
        connect(clients[3], to: path)
        expectRefused(clients[3], "a client at the limit")
        finishTurn(of: loop)
        table.fill()
        connect(clients[4], to: path)
        expectRefused(clients[4], "the next client at the limit")

        table.release()
        connect(clients[5], to: path)
        wait("a client to be accepted after the limit") { accepted.count == 3 }
        let expected = ["accepting", "connection", "refused", "connection", "refused", "refused", "connection"]
        guard events.all == expected else { fail("the acceptor reported \(events.all), not \(expected)") }
    }

    /// Descriptors opened to leave a set number free under a lowered soft limit.
    struct DescriptorTable {
        private var fillers: [Int32] = []

        /// Lowers the soft limit a little above the highest open descriptor, fills every free
        /// number below it, then frees `free` of them.
        mutating func leave(free: Int) {
            let current = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd"))?.compactMap { Int32($0) } ?? []
            var limit = rlimit()
            getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
            limit.rlim_cur = rlim_t((current.max() ?? 64) + 16)
            guard setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { fail("setrlimit: \(String(cString: strerror(errno)))") }
            fill()
            for _ in 0..<free { Glibc.close(fillers.removeLast()) }
        }

        /// Opens `/dev/null` until no descriptor is left.
        mutating func fill() {
            while case let descriptor = open("/dev/null", O_RDONLY | O_CLOEXEC), descriptor >= 0 { fillers.append(descriptor) }
            guard errno == EMFILE else { fail("filling the table stopped with \(String(cString: strerror(errno)))") }
        }

        /// Closes every filler.
        mutating func release() {
            for descriptor in fillers { Glibc.close(descriptor) }
            fillers = []
        }
    }

    static func connect(_ client: Int32, to path: String) {
        let connected = try? UnixAddress.with(path) { (address, length) throws(IOError) in Glibc.connect(client, address, length) }
        guard connected == 0 else { fail("cannot connect to \(path): \(String(cString: strerror(errno)))") }
    }

    /// Checks that `client` reads the refusal and then the end of the stream.
    static func expectRefused(_ client: Int32, _ who: String) {
        var received: [UInt8] = []
        let deadline = TestDeadline(after: .seconds(30))
        var interest = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
        while !deadline.hasPassed {
            guard poll(&interest, 1, 50) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 64)
            let count = chunk.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            received += chunk[..<count]
        }
        let text = String(decoding: received, as: UTF8.self)
        guard text == "refused\n", !deadline.hasPassed else { fail("\(who) read \(text.debugDescription), not a refusal and the end") }
    }

    /// Returns once the loop has finished the work at hand: a job runs only between turns.
    static func finishTurn(of loop: EventLoop) {
        let done = Atomic<Bool>(false)
        loop.execute { _ in done.store(true, ordering: .sequentiallyConsistent) }
        wait("the loop to finish its turn") { done.load(ordering: .sequentiallyConsistent) }
    }

    static func wait(_ what: String, until condition: () -> Bool) {
        let deadline = TestDeadline(after: .seconds(30))
        while !condition() {
            guard !deadline.hasPassed else { fail("timed out waiting for \(what)") }
            usleep(1_000)
        }
    }

    /// Where the child writes why it failed: an exit test hands back only the exit status
    /// when it fails.
    static func reportPath(parent: pid_t) -> String {
        "/tmp/sy-io-acceptor-limit-\(parent).txt"
    }

    static func fail(_ message: String) -> Never {
        // Writing the report needs a descriptor: the hard limit is still the one we started with.
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        limit.rlim_cur = limit.rlim_max
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        let report = message + " (the acceptor reported \(events.all))"
        try? report.write(toFile: reportPath(parent: getppid()), atomically: false, encoding: .utf8)
        exit(EXIT_FAILURE)
    }
}
