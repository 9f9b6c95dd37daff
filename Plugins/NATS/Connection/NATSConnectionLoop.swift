import Glibc

/// The body of a connection's thread: connect, then one `poll` loop over the socket and the
/// wake-up pipe, feeding the protocol machine and writing what it and the bridge queue.
final class NATSConnectionLoop {
    private let connection: NATSConnection
    private let wakeRead: Int32
    private let clock = ContinuousClock()
    private let start: ContinuousClock.Instant
    private var machine: NATSClientMachine
    private var readBuffer = [UInt8](repeating: 0, count: 64 << 10)
    private var chunk: [UInt8] = []
    private var chunkOffset = 0
    private var socket: Int32 = -1

    init(connection: NATSConnection, options: NATSConnectOptions, timing: NATSClientMachine.Timing, wakeRead: Int32) {
        self.connection = connection
        self.wakeRead = wakeRead
        start = clock.now
        machine = NATSClientMachine(options: options, timing: timing, now: .zero)
    }

    private var now: Duration { start.duration(to: clock.now) }

    func run() {
        do {
            socket = try NATSSocket.connect(host: connection.endpoint.host, port: connection.endpoint.port,
                                            timeout: machine.nextDeadline, abort: wakeRead)
        } catch {
            connection.finish(error)
            return
        }
        let ending = serve()
        Glibc.close(socket)
        connection.finish(ending)
    }

    /// Runs until the connection must end and returns why.
    private func serve() -> NATSConnectionError {
        var flushDeadline: Duration?
        while true {
            let plan = connection.plan()
            if !plan.output.isEmpty {
                if chunkOffset == chunk.count {
                    chunk = plan.output
                    chunkOffset = 0
                } else {
                    chunk += plan.output
                }
            }
            for _ in 0..<plan.flushes {
                if let ending = apply(machine.flush()) { return ending }
            }
            if chunkOffset < chunk.count {
                // The socket is almost always writable: try before polling for it. Once all
                // is written, take what the bridge queued meanwhile before sleeping: it does
                // not wake the thread for bytes queued while others were still unwritten.
                do {
                    try writeChunk()
                } catch {
                    return error
                }
                if chunkOffset == chunk.count { chunk = connection.takeOutput() }
            }
            if plan.closeRequested {
                let flushEnd = flushDeadline ?? now + connection.limits.flushTimeout
                flushDeadline = flushEnd
                if chunkOffset == chunk.count || now >= flushEnd { return .closedByClient }
            }
            var interests = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            var socketEvents: Int32 = 0
            if plan.readAllowed, !plan.closeRequested { socketEvents |= Int32(POLLIN) }
            if chunkOffset < chunk.count { socketEvents |= Int32(POLLOUT) }
            interests.append(pollfd(fd: socket, events: Int16(socketEvents), revents: 0))
            let deadline = min(machine.nextDeadline, flushDeadline ?? machine.nextDeadline)
            let ready = poll(&interests, 2, NATSSocket.milliseconds(deadline - now))
            if ready < 0, errno != EINTR { return .io("poll: \(NATSSocket.errorText(errno))") }
            if interests[0].revents != 0 { drainWakeups() }
            let revents = Int32(interests[1].revents)
            do {
                if revents & Int32(POLLOUT) != 0 { try writeChunk() }
                if revents & (Int32(POLLIN) | Int32(POLLHUP) | Int32(POLLERR)) != 0, !plan.closeRequested {
                    if let ending = try readAvailable() { return ending }
                }
            } catch {
                return error
            }
            if let ending = apply(machine.tick(now: now)) { return ending }
        }
    }

    private func readAvailable() throws(NATSConnectionError) -> NATSConnectionError? {
        guard let count = try NATSSocket.read(socket, into: &readBuffer) else { return nil }
        guard count > 0 else { return .closedByServer }
        return apply(machine.receive(readBuffer[0..<count], now: now))
    }

    private func writeChunk() throws(NATSConnectionError) {
        let written = try NATSSocket.write(socket, chunk, from: chunkOffset)
        chunkOffset += written
        if chunkOffset == chunk.count {
            chunk = []
            chunkOffset = 0
        }
        if written > 0 { connection.recordWritten(written) }
    }

    /// Queues the machine's bytes, hands its events over, and returns why to close, if so.
    private func apply(_ output: NATSClientMachine.Output) -> NATSConnectionError? {
        if !output.bytes.isEmpty {
            chunk += output.bytes
            connection.recordQueued(output.bytes.count)
        }
        let info = output.events.contains { event in
            switch event {
            case .connected, .infoChanged: return true
            default: return false
            }
        } ? machine.info : nil
        connection.deliver(output.events, info: info)
        return output.close
    }

    private func drainWakeups() {
        while readBuffer.withUnsafeMutableBytes({ Glibc.read(wakeRead, $0.baseAddress, $0.count) }) > 0 {}
    }
}
