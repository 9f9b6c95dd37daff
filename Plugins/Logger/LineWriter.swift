import Dispatch
import Foundation
import Synchronization
import Switchyard

/// Writes whole lines to a file descriptor off the cooperative thread pool.
///
/// A write to a stalled terminal or pipe can block; it blocks this writer's queue, never a
/// Swift concurrency thread. At most `maxPendingLines` wait to be written; beyond that lines
/// are dropped and counted, so a stalled output never grows memory.
final class LineWriter: Sendable {
    /// Where lines go.
    enum Destination: Sendable, Hashable {
        case standardOutput
        case standardError
        /// A file, created if missing (mode 0644), appended to.
        case file(String)
    }

    private let descriptor: Int32
    private let ownsDescriptor: Bool
    private let maxPendingLines: Int
    private let queue = DispatchQueue(label: "switchyard.logger.writer")
    private let counts = Mutex((pending: 0, dropped: 0))

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
    }

    /// Lines dropped because the output fell too far behind.
    var droppedCount: Int { counts.withLock { $0.dropped } }

    /// Queues one line (a newline is added). Returns `false`, dropping it, when too many lines
    /// are already waiting.
    @discardableResult
    func write(_ line: String) -> Bool {
        let admitted = counts.withLock { counts in
            guard counts.pending < maxPendingLines else {
                counts.dropped += 1
                return false
            }
            counts.pending += 1
            return true
        }
        guard admitted else { return false }
        queue.async { [self] in
            DescriptorWriter.writeLine(line, to: self.descriptor)
            self.counts.withLock { $0.pending -= 1 }
        }
        return true
    }

    /// Waits until every queued line is written, then closes a file the writer opened.
    func finish() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async { [descriptor, ownsDescriptor] in
                if ownsDescriptor { close(descriptor) }
                continuation.resume()
            }
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
