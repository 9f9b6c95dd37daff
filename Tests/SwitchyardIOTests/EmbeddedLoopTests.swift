import Testing
@testable import SwitchyardIO

/// The embedded loop and channel: a protocol adapter tested in-process, deterministically.
struct EmbeddedLoopTests {
    /// A line echo, made by `make`, handling an embedded channel on a fresh loop.
    private func makeEcho(
        _ make: (EmbeddedChannel) -> LineEcho = { LineEcho(channel: $0) }
    ) -> (EmbeddedLoop, EmbeddedChannel, LineEcho) {
        let loop = EmbeddedLoop()
        let channel = EmbeddedChannel(loop: loop)
        let echo = make(channel)
        channel.handler = echo
        return (loop, channel, echo)
    }

    /// Lines split across feeds are answered in order; a line over the limit is reported.
    @Test func answersLines() {
        let (_, channel, _) = makeEcho()
        channel.feed(Array("hel".utf8))
        #expect(channel.takeWritten().isEmpty)
        channel.feed(Array("lo\r\nworld\n".utf8) + Array(repeating: UInt8(ascii: "x"), count: 100) + [10])
        #expect(String(decoding: channel.takeWritten(), as: UTF8.self) == "> hello\n> world\n! too long\n")
    }

    /// A full channel stops the reads; room lets the rest through without losing a line.
    @Test func backpressure() {
        let (_, channel, _) = makeEcho { channel in
            channel.writeCapacity = 4
            return LineEcho(channel: channel, highWater: 8)
        }
        channel.feed((0..<10).flatMap { Array("l\($0)\n".utf8) })
        #expect(channel.isReading == false)
        #expect(channel.wantsWritable)
        var output: [UInt8] = channel.takeWritten()
        while channel.wantsWritable || channel.isReading == false {
            channel.makeRoom(3)
            output += channel.takeWritten()
        }
        let expected = (0..<10).map { "> l\($0)\n" }.joined()
        #expect(String(decoding: output, as: UTF8.self) == expected)
    }

    /// The idle timer fires on the manual clock, and only after the idle time without a line.
    @Test func idleTimeoutOnManualClock() {
        let (loop, channel, echo) = makeEcho { LineEcho(channel: $0, idle: .seconds(10)) }
        loop.advance(by: .seconds(9))
        channel.feed(Array("ping\n".utf8))
        loop.advance(by: .seconds(9))
        #expect(!channel.isClosed)
        loop.advance(by: .seconds(1))
        #expect(channel.isClosed && echo.closedForIdleness)
        #expect(loop.scheduledCount == 0)
    }

    /// The end of input answers the unterminated last line and closes.
    @Test func endOfInput() {
        let (_, channel, _) = makeEcho()
        channel.feed(Array("last".utf8))
        channel.feedEnd()
        #expect(String(decoding: channel.takeWritten(), as: UTF8.self) == "> last\n")
        #expect(channel.isClosed)
    }

    /// Timers run in deadline order at their own time, including ones scheduled on the way.
    @Test func timersInOrder() {
        let loop = EmbeddedLoop()
        let start = loop.now
        var fired: [(String, Duration)] = []
        loop.schedule(after: .seconds(2)) { fired.append(("b", loop.now - start)) }
        loop.schedule(after: .seconds(1)) {
            fired.append(("a", loop.now - start))
            loop.schedule(after: .milliseconds(500)) { fired.append(("a2", loop.now - start)) }
        }
        let cancelled = loop.schedule(after: .seconds(1)) { fired.append(("x", loop.now - start)) }
        loop.cancel(cancelled)
        loop.advance(by: .seconds(5))
        #expect(fired.map(\.0) == ["a", "a2", "b"])
        #expect(fired.map(\.1) == [.seconds(1), .milliseconds(1_500), .seconds(2)])
        #expect(loop.now - start == .seconds(5))
    }

    /// A turn runs each signal fired since the last one once (however often it was fired, from
    /// whichever thread), then the before-waiting work; a removed signal's work never runs.
    @Test func signalsAndBeforeWaitingRunInATurn() async {
        let loop = EmbeddedLoop()
        var ran: [String] = []
        let fired = loop.makeSignal()
        let removed = loop.makeSignal()
        loop.setSignalHandler(fired) {
            ran.append("signal")
            loop.beforeWaiting { ran.append("before waiting") }
        }
        loop.setSignalHandler(removed) { ran.append("removed") }
        loop.removeSignal(removed)
        #expect(!loop.runTurn())
        await Task.detached { for _ in 0..<3 { fired.fire() } }.value
        removed.fire()
        #expect(loop.runTurn())
        #expect(ran == ["signal", "before waiting"])
        #expect(!loop.runTurn())
        fired.fire()
        loop.advance(by: .zero)
        #expect(ran == ["signal", "before waiting", "signal", "before waiting"])
    }
}
