import Glibc
import SwitchyardBus
import Synchronization

/// A line on stderr that says how far long work has got, redrawn in place — only when stderr
/// is a terminal: a pipe or a file gets no progress lines, only results and errors.
final class ProgressLine: Sendable {
    /// The least time between two redraws, so a fast loop does not flood the terminal.
    static let interval = Duration.milliseconds(100)

    private struct State {
        var lastDrawn: ContinuousClock.Instant?
        var shown = false
        var counted = 0
    }

    private let enabled: Bool
    private let state = Mutex(State())

    /// A line on stderr when stderr is a terminal (`isatty`); otherwise one that shows nothing.
    init(enabled: Bool = isatty(STDERR_FILENO) == 1) {
        self.enabled = enabled
    }

    /// Redraws the line with `report`, unless it was drawn less than ``interval`` ago.
    func show(_ report: JournalProgress.Report) {
        draw { Self.text(phase: report.phase, done: report.done, total: report.total, bytes: report.isBytes) }
    }

    /// Redraws the line with `text()`, unless it was drawn less than ``interval`` ago.
    private func draw(_ text: () -> String) {
        guard enabled else { return }
        let now = ContinuousClock.now
        let due = state.withLock { state in
            if let last = state.lastDrawn, now - last < Self.interval { return false }
            state.lastDrawn = now
            state.shown = true
            return true
        }
        guard due else { return }
        DescriptorWriter.writeAll(Array(("\r" + text() + "\u{1B}[K").utf8), to: STDERR_FILENO)
    }

    /// Counts one more action of `total` done in `phase` and shows the count (for work that
    /// reports action by action, such as replay's feed).
    func advance(_ phase: String, total: Int) {
        guard enabled else { return }
        let done = state.withLock { state in
            state.counted += 1
            return state.counted
        }
        draw { Self.text(phase: phase, done: done, total: total, bytes: false) }
    }

    /// Erases the line, so what follows starts on a clean one.
    func clear() {
        guard enabled, state.withLock({ state in defer { state.shown = false }; return state.shown }) else { return }
        DescriptorWriter.writeAll(Array("\r\u{1B}[K".utf8), to: STDERR_FILENO)
    }

    /// `verifying: 45% (12.3 MB of 27.0 MB)` or `importing: 45% (135000 of 300000 actions)`.
    static func text(phase: String, done: Int, total: Int, bytes: Bool) -> String {
        let percent = total > 0 ? min(100, done * 100 / total) : 100
        let amounts = bytes ? "\(ByteCount.text(done)) of \(ByteCount.text(total))" : "\(done) of \(total) actions"
        return "\(phase): \(percent)% (\(amounts))"
    }
}
