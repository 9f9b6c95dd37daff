import Glibc
import Synchronization
import SwitchyardTestSupport
import Testing
@testable import SwitchyardIO

/// The real loop with real descriptors: jobs, signals, timers and stream channels.
struct EventLoopTests {
    /// Jobs run on the loop's thread in the order they were queued.
    @Test func jobsRunInOrder() async throws {
        let loop = try EventLoop(name: "test.jobs")
        let seen = Recorder<Int>()
        for index in 0..<200 { loop.execute { _ in seen.append(index) } }
        await waitUntil("200 jobs ran") { seen.count == 200 }
        #expect(seen.all == Array(0..<200))
        await loop.shutDown()
    }

    /// Fired many times from another task, a signal runs at most once per firing, and a run
    /// always follows the last firing.
    @Test func signalsCoalesce() async throws {
        let loop = try EventLoop(name: "test.signal")
        let fired = Atomic<Int>(0)
        let seen = Recorder<Int>()
        let made = Mutex<LoopSignal?>(nil)
        loop.execute { thread in
            let signal = thread.makeSignal { seen.append(fired.load(ordering: .sequentiallyConsistent)) }
            made.withLock { $0 = signal }
        }
        await waitUntil("the signal exists") { made.withLock { $0 != nil } }
        let signal = try #require(made.withLock { $0 })
        for _ in 0..<5_000 {
            fired.add(1, ordering: .sequentiallyConsistent)
            signal.fire()
        }
        await waitUntil("a run saw the last firing") { seen.all.last == 5_000 }
        #expect(seen.count <= 5_000)
        #expect(seen.all == seen.all.sorted())
        await loop.shutDown()
    }

    /// Work the loop queues for itself — from a job, a signal or a timer, with nothing else to
    /// wake it — runs: a busy loop queues without a wake-up, so it must look before it waits.
    @Test func workQueuedByTheLoopItselfRuns() async throws {
        let loop = try EventLoop(name: "test.self-queued")
        let seen = Recorder<Int>()
        @Sendable func chain(_ step: Int) {
            seen.append(step)
            guard step < 300 else { return }
            loop.execute { thread in
                switch step % 3 {
                case 0: chain(step + 1)
                case 1: thread.makeSignal { chain(step + 1) }.fire()
                default: thread.schedule(after: .zero) { loop.execute { _ in chain(step + 1) } }
                }
            }
        }
        loop.execute { _ in chain(0) }
        await waitUntil("300 steps ran, each queued by the one before") { seen.count == 301 }
        #expect(seen.all == Array(0...300))
        await loop.shutDown()
    }

    /// Timers fire in deadline order, and a cancelled one never fires.
    @Test func timers() async throws {
        let loop = try EventLoop(name: "test.timers")
        let seen = Recorder<String>()
        loop.execute { thread in
            thread.schedule(after: .milliseconds(60)) { seen.append("late") }
            thread.schedule(after: .milliseconds(5)) { seen.append("early") }
            let cancelled = thread.schedule(after: .milliseconds(1)) { seen.append("cancelled") }
            thread.cancel(cancelled)
            thread.schedule(after: .milliseconds(120)) { seen.append("done") }
        }
        await waitUntil("the last timer fired") { seen.all.last == "done" }
        #expect(seen.all == ["early", "late", "done"])
        await loop.shutDown()
    }

    /// The line adapter of the embedded tests serves a real socket pair unchanged, and the
    /// channel closes when the peer does.
    @Test func socketChannelServesAdapter() async throws {
        let loop = try EventLoop(name: "test.socket")
        var pair: [Int32] = [-1, -1]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0)
        let (server, client) = (pair[0], pair[1])
        Sockets.prepare(server)
        let closed = Recorder<Bool>()
        loop.execute { thread in
            guard let channel = try? SocketChannel(descriptor: server, on: thread) else { return }
            channel.handler = LineEcho(channel: channel) { closed.append(true) }
        }
        let request = Array("one\ntwo\n".utf8) + Array(repeating: UInt8(ascii: "z"), count: 200) + Array("\nthree".utf8)
        #expect(request.withUnsafeBytes { Glibc.send(client, $0.baseAddress, $0.count, 0) } == request.count)
        shutdown(client, Int32(SHUT_WR))
        let reply = readAll(client)
        #expect(String(decoding: reply, as: UTF8.self) == "> one\n> two\n! too long\n> three\n")
        await waitUntil("the server side closed") { closed.count == 1 }
        Glibc.close(client)
        await loop.shutDown()
    }

    /// A pipe's read end works as a channel, and the writer's close ends it.
    @Test func pipeChannel() async throws {
        let loop = try EventLoop(name: "test.pipe")
        let (readEnd, writeEnd) = try ChildPipes.make()
        let seen = Recorder<String>()
        loop.execute { thread in
            guard let channel = try? SocketChannel(descriptor: readEnd, isSocket: false, on: thread) else { return }
            channel.handler = Collector(channel: channel, seen: seen)
        }
        let text = Array("through the pipe".utf8)
        #expect(text.withUnsafeBytes { Glibc.write(writeEnd, $0.baseAddress, $0.count) } == text.count)
        Glibc.close(writeEnd)
        await waitUntil("the pipe ended") { seen.all.last == "end" }
        #expect(seen.all.dropLast().joined() == "through the pipe")
        await loop.shutDown()
    }

    private func readAll(_ descriptor: Int32) -> [UInt8] {
        var timeout = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            guard count > 0 else { return out }
            out += buffer[..<count]
        }
    }
}

/// Records what a channel receives, then "end", closing it.
final class Collector: StreamHandler {
    let channel: any StreamChannel
    let seen: Recorder<String>

    init(channel: any StreamChannel, seen: Recorder<String>) {
        self.channel = channel
        self.seen = seen
    }

    func received(_ bytes: UnsafeRawBufferPointer) {
        seen.append(String(decoding: bytes, as: UTF8.self))
    }

    func receivedEnd(error: IOError?) {
        seen.append(error.map { "error \($0)" } ?? "end")
        channel.close()
    }

    func writable() {}
}
