import FoundationEssentials
import Glibc
import Synchronization
import SwitchyardBus
import SwitchyardIO

/// Writes whole lines to a file descriptor off the cooperative thread pool.
///
/// A write to a stalled terminal or pipe can block; it blocks this writer's own thread, never a
/// Swift concurrency thread or a libdispatch worker, so the logger costs one thread however busy
/// the bus is (and none after ``idleThreadExit`` without lines). At most `maxPendingLines` wait besides those being written; beyond
/// that lines are dropped and counted, so a stalled output never grows memory.
///
/// Lines that queue up while one write runs go out together in the next: to a regular file
/// in one call (an `O_APPEND` write is placed whole), to a pipe or terminal in chunks of whole
/// lines of at most ``atomicChunk`` bytes, each one atomic pipe write, so lines never
/// interleave with another writer's. A busy bus costs one system call per drain (or chunk)
/// instead of one per action.
final class LineWriter: Sendable {
    /// Where lines go.
    enum Destination: Sendable, Hashable {
        case standardOutput
        case standardError
        /// A file, created if missing (mode 0644), appended to.
        case file(String)
    }

    /// The most bytes of several lines written in one call: `PIPE_BUF`, the size up to which
    /// a pipe write is never split by another writer's. A longer line is written on its own.
    static let atomicChunk = 4096
    /// How long the writer's thread stays parked without lines before it ends (the next line
    /// starts it again).
    static let idleThreadExit: Duration = .seconds(10)

    private struct Pending: Sendable {
        var bytes: [UInt8] = []
        /// Where each queued line ends in `bytes`.
        var lineEnds: [Int] = []
        var dropped = 0
        /// A drain is queued or running; the next line need not queue one.
        var draining = false
    }

    private let descriptor: Int32
    private let ownsDescriptor: Bool
    /// The most bytes of several lines written in one call: everything queued for a regular
    /// file, ``atomicChunk`` for anything else.
    private let chunkLimit: Int
    /// `write` calls made so far.
    private let writeCalls = Atomic<Int>(0)
    private let maxPendingLines: Int
    private let thread = WorkerThread(name: "logger-writer", idleExit: LineWriter.idleThreadExit)
    private let pending = Mutex(Pending())

    /// Opens the destination. Throws ``LineWriterError`` when a file cannot be opened.
    init(destination: Destination, maxPendingLines: Int) throws {
        self.maxPendingLines = maxPendingLines
        switch destination {
        case .standardOutput:
            descriptor = 1
            ownsDescriptor = false
        case .standardError:
            descriptor = 2
            ownsDescriptor = false
        case .file(let path):
            let opened = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
            guard opened >= 0 else { throw LineWriterError(path: path, errno: errno) }
            descriptor = opened
            ownsDescriptor = true
        }
        var status = stat()
        let regularFile = fstat(descriptor, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
        chunkLimit = regularFile ? Int.max : Self.atomicChunk
    }

    /// How many `write` calls the writer made so far.
    var writeCount: Int { writeCalls.load(ordering: .relaxed) }

    /// Says why the writer's thread polls instead of parking; `nil` when it parks.
    var pollingNotice: String? { thread.pollingNotice }

    /// Lines dropped because the output fell too far behind.
    var droppedCount: Int { pending.withLock { $0.dropped } }

    /// Queues one line (a newline is added). Returns `false`, dropping it, when too many lines
    /// are already waiting.
    @discardableResult
    func write(_ line: String) -> Bool {
        write { $0.append(contentsOf: line.utf8) }
    }

    /// Queues the line `format` appends to the buffer it is given (a newline is added), as
    /// ``write(_:)`` does without making a string of it first.
    @discardableResult
    func write(_ format: (inout [UInt8]) -> Void) -> Bool {
        write(count: 1) { _, bytes in format(&bytes) } == 1
    }

    /// Queues `count` lines, the one of each index appended by `format` (a newline is added),
    /// under one lock and with at most one wake-up of the writer's thread: the logger hands
    /// over every action it already holds this way, where a line each cost a contended lock
    /// and a wake-up per action. Lines past the limit are dropped and counted, as
    /// ``write(_:)`` drops them. Returns how many were queued.
    @discardableResult
    func write(count: Int, _ format: (Int, inout [UInt8]) -> Void) -> Int {
        let (admitted, startDrain) = pending.withLock { pending -> (Int, Bool) in
            var admitted = 0
            while admitted < count {
                guard pending.lineEnds.count < maxPendingLines else {
                    pending.dropped += count - admitted
                    break
                }
                format(admitted, &pending.bytes)
                pending.bytes.append(10)
                pending.lineEnds.append(pending.bytes.count)
                admitted += 1
            }
            guard admitted > 0 else { return (0, false) }
            defer { pending.draining = true }
            return (admitted, !pending.draining)
        }
        if startDrain { thread.submit { [self] in drain() } }
        return admitted
    }

    /// Writes what is queued until nothing is; lines queued meanwhile go out in the next turn.
    private func drain() {
        var bytes: [UInt8] = []
        var lineEnds: [Int] = []
        while true {
            let found = pending.withLock { pending -> Bool in
                guard !pending.lineEnds.isEmpty else {
                    pending.draining = false
                    return false
                }
                swap(&pending.bytes, &bytes)
                swap(&pending.lineEnds, &lineEnds)
                return true
            }
            guard found else { return }
            writeChunks(bytes, lineEnds: lineEnds)
            bytes.removeAll(keepingCapacity: bytes.capacity <= 1 << 20)
            lineEnds.removeAll(keepingCapacity: true)
        }
    }

    /// Writes `bytes` in chunks of whole lines of at most ``chunkLimit`` bytes (a longer line
    /// on its own).
    private func writeChunks(_ bytes: [UInt8], lineEnds: [Int]) {
        guard bytes.count > chunkLimit else { return writeCounted(bytes) }
        var start = 0
        var end = 0
        for lineEnd in lineEnds {
            if lineEnd - start > chunkLimit, end > start {
                writeCounted(Array(bytes[start..<end]))
                start = end
            }
            end = lineEnd
        }
        if end > start { writeCounted(Array(bytes[start..<end])) }
    }

    private func writeCounted(_ bytes: [UInt8]) {
        writeCalls.add(1, ordering: .relaxed)
        DescriptorWriter.writeAll(bytes, to: descriptor)
    }

    /// Waits until every queued line is written, then closes a file the writer opened.
    func finish() async {
        await thread.run { [descriptor, ownsDescriptor] in
            if ownsDescriptor { close(descriptor) }
        }
    }
}

/// A log file that could not be opened.
struct LineWriterError: Error, CustomStringConvertible {
    let path: String
    let errno: Int32

    var description: String {
        "cannot open \(path) for appending: \(String(cString: strerror(errno)))"
    }
}
