import Glibc

/// The body of a child connection's I/O thread: one `poll` loop over the child's stdin,
/// stdout and stderr plus a wake-up pipe, all non-blocking.
///
/// It writes queued lines while the child reads them, reads output only while the consumer
/// has room, and once the child has been reaped it reads what is left in the pipes (without
/// waiting for a descendant that escaped the process group and still holds them), closes
/// everything and queues the exit event. Empty stdout lines carry nothing and are skipped,
/// which also bounds the number of buffered events by the bytes read.
final class ChildIOLoop {
    private let connection: ChildConnection
    private let limits: ChildLimits
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private var stdin: Int32?
    private var stdout: Int32?
    private var stderr: Int32?
    private var batch: [UInt8] = []
    private var batchOffset = 0
    private var batchLines = 0
    private var outputLines: LineSplitter
    private var diagnosticLines: LineSplitter
    private var readBuffer = [UInt8](repeating: 0, count: 64 << 10)
    private var events: [ChildEvent] = []

    init(connection: ChildConnection, child: SpawnedChild, wakeRead: Int32, wakeWrite: Int32, limits: ChildLimits) {
        self.connection = connection
        self.limits = limits
        self.wakeRead = wakeRead
        self.wakeWrite = wakeWrite
        self.stdin = child.stdin
        self.stdout = child.stdout
        self.stderr = child.stderr
        self.outputLines = LineSplitter(maximumLength: limits.maximumLineLength)
        self.diagnosticLines = LineSplitter(
            maximumLength: limits.maximumDiagnosticLength,
            excerptLength: limits.maximumDiagnosticLength
        )
    }

    func run() {
        // A write to a child that closed its stdin must fail with EPIPE, not kill the bus.
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)

        var drainedAfterExit = false
        while true {
            let plan = connection.planIO(wantsBatch: batchOffset == batch.count, inputOpen: stdin != nil)
            if plan.closeInput {
                closeInput()
            }
            if let next = plan.batch {
                (batch, batchOffset, batchLines) = (next.bytes, 0, next.lines)
            }
            if let status = plan.exitStatus, drainedAfterExit || (stdout == nil && stderr == nil) {
                finish(status)
                return
            }

            var interests = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            if let stdin, batchOffset < batch.count {
                interests.append(pollfd(fd: stdin, events: Int16(POLLOUT), revents: 0))
            }
            if plan.readOutput {
                for descriptor in [stdout, stderr].compactMap({ $0 }) {
                    interests.append(pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0))
                }
            }
            // After the exit, output is read only while some is already there.
            let timeout: Int32 = plan.exitStatus != nil && plan.readOutput ? 0 : -1
            let ready = poll(&interests, nfds_t(interests.count), timeout)
            if ready == 0 {
                drainedAfterExit = true
                continue
            }
            guard ready > 0 else { continue }
            for interest in interests where interest.revents != 0 {
                if interest.fd == wakeRead {
                    drainWakeups()
                } else if interest.fd == stdin {
                    writeBatch()
                } else if interest.fd == stdout {
                    readOutput()
                } else {
                    readDiagnostics()
                }
            }
            connection.deliver(events)
            events.removeAll(keepingCapacity: true)
        }
    }

    private func drainWakeups() {
        var sink = [UInt8](repeating: 0, count: 64)
        while read(wakeRead, &sink, sink.count) > 0 {}
    }

    private func writeBatch() {
        guard let stdin else { return }
        let written = batch.withUnsafeBytes { bytes in
            write(stdin, bytes.baseAddress! + batchOffset, bytes.count - batchOffset)
        }
        if written >= 0 {
            batchOffset += written
            if batchOffset == batch.count {
                connection.recordWritten(lines: batchLines)
                (batch, batchOffset, batchLines) = ([], 0, 0)
            }
        } else if errno != EAGAIN && errno != EINTR {
            closeInput()
        }
    }

    private func closeInput() {
        guard let stdin else { return }
        close(stdin)
        self.stdin = nil
        let completed = batch[..<batchOffset].reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
        connection.recordWritten(lines: completed)
        connection.recordInputClosed(unwrittenLines: batchOffset < batch.count ? batchLines - completed : 0)
        (batch, batchOffset, batchLines) = ([], 0, 0)
    }

    private func readOutput() {
        guard let descriptor = stdout else { return }
        var pieces: [LineSplitter.Piece] = []
        if readChunk(from: descriptor, into: &outputLines, pieces: &pieces) {
            close(descriptor)
            stdout = nil
        }
        appendOutput(pieces)
    }

    private func readDiagnostics() {
        guard let descriptor = stderr else { return }
        var pieces: [LineSplitter.Piece] = []
        if readChunk(from: descriptor, into: &diagnosticLines, pieces: &pieces) {
            close(descriptor)
            stderr = nil
        }
        appendDiagnostics(pieces)
    }

    private func appendOutput(_ pieces: [LineSplitter.Piece]) {
        for piece in pieces {
            switch piece {
            case .line(let line) where line.isEmpty:
                continue
            case .line(let line):
                events.append(.output(line))
            case .overlong(let excerpt, let length):
                events.append(.overlongOutput(excerpt: excerpt, length: length))
            }
        }
    }

    private func appendDiagnostics(_ pieces: [LineSplitter.Piece]) {
        for piece in pieces {
            switch piece {
            case .line(let line):
                events.append(.diagnostic(String(decoding: line, as: UTF8.self)))
            case .overlong(let excerpt, let length):
                events.append(.diagnostic(String(decoding: excerpt, as: UTF8.self) + " [cut: line of \(length) bytes]"))
            }
        }
    }

    /// Reads once; returns true at the end of the stream, after the splitter gave its last line.
    private func readChunk(from descriptor: Int32, into splitter: inout LineSplitter, pieces: inout [LineSplitter.Piece]) -> Bool {
        let count = readBuffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count > 0 {
            splitter.append(readBuffer[0..<count], into: &pieces)
            return false
        }
        if count < 0, errno == EAGAIN || errno == EINTR {
            return false
        }
        splitter.finish(into: &pieces)
        return true
    }

    private func finish(_ status: ChildExitStatus) {
        closeInput()
        if let descriptor = stdout {
            var pieces: [LineSplitter.Piece] = []
            outputLines.finish(into: &pieces)
            appendOutput(pieces)
            close(descriptor)
            stdout = nil
        }
        if let descriptor = stderr {
            var pieces: [LineSplitter.Piece] = []
            diagnosticLines.finish(into: &pieces)
            appendDiagnostics(pieces)
            close(descriptor)
            stderr = nil
        }
        connection.deliver(events)
        events.removeAll()
        connection.retireWakePipe(read: wakeRead, write: wakeWrite)
        connection.finish(status)
    }
}
