import Glibc
import SwitchyardIO

/// The loop side of a ``NATSConnection``: connects, then feeds the protocol machine what the
/// socket reads and writes what it and the bridge queue, on the process's event loop.
///
/// It runs when the socket is ready, when the bridge fires the connection's signal (a write,
/// a flush, a consumer that caught up, a close), and at the machine's next deadline (pings,
/// the handshake timeout) or the close's flush deadline.
final class NATSConnectionLoop: StreamHandler {
    private let connection: NATSConnection
    private let thread: LoopThread
    private let start: ContinuousClock.Instant
    private var machine: NATSClientMachine
    private var chunk: [UInt8] = []
    private var chunkOffset = 0
    private var connector: Connector?
    private var channel: SocketChannel?
    private var flushDeadline: Duration?
    private var timer: (id: TimerID, at: Duration)?
    private var servicing = false
    private var serviceAgain = false
    private var ended = false

    private init(connection: NATSConnection, options: NATSConnectOptions, timing: NATSClientMachine.Timing, thread: LoopThread) {
        self.connection = connection
        self.thread = thread
        start = thread.now
        machine = NATSClientMachine(options: options, timing: timing, now: .zero)
    }

    private var now: Duration { start.duration(to: thread.now) }

    /// Starts connecting; the loop keeps the returned side alive through the connection's
    /// signal until it ends.
    static func start(
        _ connection: NATSConnection, options: NATSConnectOptions, timing: NATSClientMachine.Timing, on thread: LoopThread
    ) {
        let side = NATSConnectionLoop(connection: connection, options: options, timing: timing, thread: thread)
        thread.setSignalHandler(connection.signal) { side.service() }
        let endpoint = connection.endpoint
        // The machine's first deadline bounds the connect and the handshake together.
        side.connector = Connector.connect(
            to: .tcp(host: endpoint.host, port: endpoint.port), timeout: side.machine.nextDeadline, budget: .total,
            noDelay: true, on: thread
        ) { result in
            side.connector = nil
            side.connected(result)
        }
    }

    private func connected(_ result: Result<Int32, IOError>) {
        guard !ended else {
            if case .success(let descriptor) = result { Glibc.close(descriptor) }
            return
        }
        let endpoint = connection.endpoint
        switch result {
        case .failure(let error):
            if error.isTimeout { return end(.timeout("connecting to \(endpoint.host):\(endpoint.port)")) }
            if let reason = error.resolveReason { return end(.unreachable("cannot resolve \"\(endpoint.host)\": \(reason)")) }
            end(.unreachable("\(endpoint.host):\(endpoint.port): \(IOError.text(error.errno ?? EIO))"))
        case .success(let descriptor):
            do {
                let channel = try SocketChannel(descriptor: descriptor, on: thread)
                channel.handler = self
                self.channel = channel
            } catch {
                Glibc.close(descriptor)
                return end(.io("epoll_ctl: \(IOError.text(error.errno ?? EIO))"))
            }
            service()
        }
    }

    func received(_ bytes: UnsafeRawBufferPointer) {
        guard !ended else { return }
        if let ending = apply(machine.receive(bytes, now: now)) { return end(ending) }
        service()
    }

    func receivedEnd(error: IOError?) {
        end(error.map { .io("read: \(IOError.text($0.errno ?? EIO))") } ?? .closedByServer)
    }

    func writable() {
        service()
    }

    /// Takes what the bridge queued, writes, closes when asked, runs the machine's timers and
    /// sets what to wait for. Re-entrant calls (a write that ends the connection, a signal
    /// while running) fold into the running one.
    private func service() {
        guard !ended else { return }
        guard let channel else {
            // Still connecting: only a close matters, and it abandons the attempt.
            if connection.isCloseRequested { end(.closedByClient) }
            return
        }
        if servicing {
            serviceAgain = true
            return
        }
        servicing = true
        defer { servicing = false }
        repeat {
            serviceAgain = false
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
                if let ending = apply(machine.flush()) { return end(ending) }
            }
            // Write until the socket is full; after each complete write take what the bridge
            // queued meanwhile, as it does not signal for bytes queued behind unwritten ones.
            while chunkOffset < chunk.count {
                guard let written = writeChunk() else { return }
                if chunkOffset == chunk.count { chunk = connection.takeOutput() }
                if written == 0 { break }
            }
            if plan.closeRequested {
                let flushEnd = flushDeadline ?? now + connection.limits.flushTimeout
                flushDeadline = flushEnd
                if chunkOffset == chunk.count || now >= flushEnd { return end(.closedByClient) }
            }
            if let ending = apply(machine.tick(now: now)) { return end(ending) }
            channel.isReading = plan.readAllowed && !plan.closeRequested
            channel.wantsWritable = chunkOffset < chunk.count
            // At most a minute ahead, so a far deadline never overflows the clock.
            armTimer(at: min(machine.nextDeadline, flushDeadline ?? machine.nextDeadline, now + .seconds(60)))
        } while serviceAgain && !ended
    }

    /// Writes as much of the chunk as the socket takes; the count, or `nil` after ending the
    /// connection on a failed write.
    private func writeChunk() -> Int? {
        let written = chunk.withUnsafeBytes { channel?.write(UnsafeRawBufferPointer(rebasing: $0[chunkOffset...])) }
        guard let written else {
            end(.io("write: \(IOError.text(errno))"))
            return nil
        }
        chunkOffset += written
        if chunkOffset == chunk.count {
            chunk = []
            chunkOffset = 0
        }
        if written > 0 { connection.recordWritten(written) }
        return written
    }

    private func armTimer(at deadline: Duration) {
        if let timer {
            guard timer.at != deadline else { return }
            thread.cancel(timer.id)
        }
        let id = thread.schedule(at: start.advanced(by: deadline)) { [weak self] in
            guard let self else { return }
            self.timer = nil
            self.service()
        }
        timer = (id, deadline)
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

    /// Closes the socket, lets go of the loop and reports `error` as the closing event.
    private func end(_ error: NATSConnectionError) {
        guard !ended else { return }
        ended = true
        if let timer { thread.cancel(timer.id) }
        timer = nil
        connector?.cancel()
        connector = nil
        channel?.close()
        channel = nil
        thread.removeSignal(connection.signal)
        connection.finish(error)
    }
}
