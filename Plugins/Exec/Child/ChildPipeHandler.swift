import Glibc
import SwitchyardIO

/// The loop side of a ``ChildConnection``: the child's stdin, stdout and stderr and its pidfd,
/// registered on the process's event loop instead of a thread of their own.
///
/// It writes queued lines while the child reads them, reads output only while the consumer
/// has room (a pipe without room is out of epoll, so the kernel's buffer pushes back on the
/// child), and once the child has been reaped it reads what is left in the pipes (without
/// waiting for a descendant that escaped the process group and still holds them), closes
/// everything and queues the exit event. Empty stdout lines carry nothing and are skipped,
/// which also bounds the number of buffered events by the bytes read.
final class ChildPipeHandler {
    /// How many plan-and-read passes one turn may make after the exit before letting the
    /// loop's other descriptors go first.
    private static let passesPerTurn = 16

    private let connection: ChildConnection
    private let thread: LoopThread
    private let wake: LoopSignal
    private var input: ChildPipeEnd?
    private var output: ChildPipeEnd?
    private var diagnostics: ChildPipeEnd?
    private var exitWatcher: ChildExitWatcher?
    private var batch: [UInt8] = []
    private var batchOffset = 0
    private var batchLines = 0
    private var outputLines: LineSplitter
    private var diagnosticLines: LineSplitter
    private var readBuffer = [UInt8](repeating: 0, count: 64 << 10)
    private var events: [ChildEvent] = []
    private var drainedAfterExit = false
    private var isFinished = false

    private init(connection: ChildConnection, limits: ChildLimits, wake: LoopSignal, thread: LoopThread) {
        self.connection = connection
        self.thread = thread
        self.wake = wake
        outputLines = LineSplitter(maximumLength: limits.maximumLineLength)
        diagnosticLines = LineSplitter(
            maximumLength: limits.maximumDiagnosticLength, excerptLength: limits.maximumDiagnosticLength)
    }

    /// Takes over `child`'s pipes on `thread`; `wake` runs the next step whenever the bus side
    /// changed something (lines queued, room made, input to close).
    static func start(
        _ connection: ChildConnection, child: SpawnedChild, limits: ChildLimits, wake: LoopSignal, on thread: LoopThread
    ) {
        let handler = ChildPipeHandler(connection: connection, limits: limits, wake: wake, thread: thread)
        do {
            handler.input = try ChildPipeEnd(child.stdin, on: thread) { _ in handler.step() }
            handler.output = try ChildPipeEnd(child.stdout, on: thread) { _ in handler.outputReady() }
            handler.diagnostics = try ChildPipeEnd(child.stderr, on: thread) { _ in handler.diagnosticsReady() }
            handler.exitWatcher = try ChildExitWatcher(
                pid: child.pid, on: thread, beforeReap: { connection.leaderExited() },
                onExit: { handler.reaped($0) })
        } catch {
            // Out of descriptors or memory for epoll: the child cannot be served, so it is
            // stopped and reported as having failed rather than left running unheard.
            for descriptor in [child.stdin, child.stdout, child.stderr] where !handler.owns(descriptor) {
                Glibc.close(descriptor)
            }
            connection.leaderExited()
            var status: Int32 = 0
            while waitpid(child.pid, &status, 0) == -1, errno == EINTR {}
            handler.events.append(.diagnostic("exec: cannot watch the child on the event loop: \(error)"))
            handler.reaped(.unknown)
            return
        }
        thread.setSignalHandler(wake) { handler.step() }
        handler.step()
    }

    private func owns(_ descriptor: Int32) -> Bool {
        [input, output, diagnostics].contains { $0?.descriptor == descriptor }
    }

    /// Plans with the shared state and does what it says, until nothing more can be done now.
    private func step() {
        var passes = 0
        while !isFinished {
            passes += 1
            guard passes <= Self.passesPerTurn else {
                wake.fire()
                return
            }
            let plan = connection.planIO(wantsBatch: batchOffset == batch.count, inputOpen: input != nil)
            if plan.closeInput { closeInput() }
            if let next = plan.batch { (batch, batchOffset, batchLines) = (next.bytes, 0, next.lines) }
            if let status = plan.exitStatus, drainedAfterExit || (output == nil && diagnostics == nil) {
                finish(status)
                return
            }
            var progressed = false
            if input != nil, batchOffset < batch.count {
                writeBatch()
                // A batch written in full makes room for the next one.
                progressed = input != nil && batchOffset == batch.count
            }
            input?.want(batchOffset < batch.count ? .writable : nil)
            output?.want(plan.readOutput ? .readable : nil)
            diagnostics?.want(plan.readOutput ? .readable : nil)
            if plan.exitStatus != nil, plan.readOutput {
                // After the exit, output is read only while some is already there.
                let readOutput = readOutput()
                let readDiagnostics = readDiagnostics()
                if !readOutput, !readDiagnostics { drainedAfterExit = true }
                progressed = true
            }
            deliver()
            if !progressed { return }
        }
    }

    private func outputReady() {
        _ = readOutput()
        deliver()
        step()
    }

    private func diagnosticsReady() {
        _ = readDiagnostics()
        deliver()
        step()
    }

    private func reaped(_ exit: ProcessExit) {
        exitWatcher = nil
        let status: ChildExitStatus = switch exit {
        case .exited(let code): .exited(code: code)
        case .signalled(let signal): .signalled(signal: signal)
        case .unknown: .exited(code: -1)
        }
        connection.recordExit(status)
        step()
    }

    private func deliver() {
        guard !events.isEmpty else { return }
        connection.deliver(events)
        events.removeAll(keepingCapacity: true)
    }

    private func writeBatch() {
        guard let input else { return }
        let written = batch.withUnsafeBytes { bytes in
            Glibc.write(input.descriptor, bytes.baseAddress! + batchOffset, bytes.count - batchOffset)
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
        guard let input else { return }
        input.close()
        self.input = nil
        let completed = batch[..<batchOffset].reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
        connection.recordWritten(lines: completed)
        connection.recordInputClosed(unwrittenLines: batchOffset < batch.count ? batchLines - completed : 0)
        (batch, batchOffset, batchLines) = ([], 0, 0)
    }

    /// Reads one chunk of stdout; `true` when something (data or the end) was read.
    private func readOutput() -> Bool {
        let (pieces, progressed) = read(&output, into: &outputLines)
        appendOutput(pieces)
        return progressed
    }

    /// Reads one chunk of stderr; `true` when something (data or the end) was read.
    private func readDiagnostics() -> Bool {
        let (pieces, progressed) = read(&diagnostics, into: &diagnosticLines)
        appendDiagnostics(pieces)
        return progressed
    }

    /// Reads one chunk of `pipe` into `lines`, closing and clearing the pipe at its end.
    /// - Returns: The pieces split off, and whether something (data or the end) was read.
    private func read(_ pipe: inout ChildPipeEnd?, into lines: inout LineSplitter) -> ([LineSplitter.Piece], Bool) {
        guard let open = pipe else { return ([], false) }
        var pieces: [LineSplitter.Piece] = []
        let result = readChunk(from: open.descriptor, into: &lines, pieces: &pieces)
        if result == .ended {
            open.close()
            pipe = nil
        }
        return (pieces, result != .nothing)
    }

    /// Closes and clears `pipe` if it is still open, and returns the last line `lines` held.
    private func close(_ pipe: inout ChildPipeEnd?, lines: inout LineSplitter) -> [LineSplitter.Piece] {
        guard let open = pipe else { return [] }
        var pieces: [LineSplitter.Piece] = []
        lines.finish(into: &pieces)
        open.close()
        pipe = nil
        return pieces
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

    private enum ReadResult {
        case data, nothing, ended
    }

    /// Reads once; at the end of the stream the splitter has given its last line.
    private func readChunk(from descriptor: Int32, into splitter: inout LineSplitter, pieces: inout [LineSplitter.Piece]) -> ReadResult {
        while true {
            let count = readBuffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                splitter.append(readBuffer[0..<count], into: &pieces)
                return .data
            }
            if count < 0, errno == EINTR { continue }
            if count < 0, errno == EAGAIN { return .nothing }
            splitter.finish(into: &pieces)
            return .ended
        }
    }

    private func finish(_ status: ChildExitStatus) {
        isFinished = true
        closeInput()
        appendOutput(close(&output, lines: &outputLines))
        appendDiagnostics(close(&diagnostics, lines: &diagnosticLines))
        deliver()
        // Nothing may fire the signal for work any more; the handler is released with it.
        connection.retireWake()
        thread.removeSignal(wake)
        connection.finish(status)
    }
}

/// One of a child's pipe ends on the loop: out of epoll while its owner wants nothing from it,
/// so a hung-up pipe is not reported on every wait.
private final class ChildPipeEnd: DescriptorHandler {
    let descriptor: Int32
    private let thread: LoopThread
    private var registration: Registration?
    private var onReady: ((IOEvents) -> Void)?

    init(_ descriptor: Int32, on thread: LoopThread, onReady: @escaping (IOEvents) -> Void) throws(IOError) {
        self.descriptor = descriptor
        self.thread = thread
        self.onReady = onReady
        registration = try thread.register(descriptor, interest: .readable, handler: self)
        // Nothing is wanted until the first plan says so.
        want(nil)
    }

    func ready(_ events: IOEvents) {
        onReady?(events)
    }

    func want(_ interest: IOEvents?) {
        guard let registration else { return }
        thread.setInterest(registration, interest)
    }

    func close() {
        guard let registration else { return }
        thread.deregister(registration)
        self.registration = nil
        onReady = nil
        Glibc.close(descriptor)
    }
}
