import Glibc
import SwitchyardBus
import Synchronization

/// Long journal work of one command (restore, import, export, verify, show, replay's
/// reading): a progress line while it runs, and Ctrl-C.
///
/// SIGINT or SIGTERM while the work only reads ends the process at once with 128 + the
/// signal's number (130 for Ctrl-C): nothing is being written, so nothing is left half
/// written. While it writes (``JournalProgress/beginWriting()``) the work stops at its next
/// whole, flushed batch and the command reports how far it got; ``interruptedStatus`` is then
/// the status to exit with.
final class LongWork: Sendable {
    let progress: JournalProgress
    private let line: ProgressLine
    private let received = Atomic<Int32>(0)

    /// Takes `signals`' stop signals for the work; `ending` is the line printed when the
    /// process ends at once.
    convenience init(signals: SignalListener, ending: String) {
        self.init(signals: signals) { signal in
            Output.error(ending)
            return .interrupted(by: signal)
        }
    }

    /// Takes `signals`' stop signals for the work; `end` says why the process ends at once and
    /// gives its status (`run` stops with 0 as it does on any stop signal).
    init(signals: SignalListener, end: @escaping @Sendable (Int32) -> ExitStatus) {
        let line = ProgressLine()
        self.line = line
        progress = JournalProgress { report in line.show(report) }
        signals.setHandler { [self] signal in
            guard signal != SIGHUP else { return }
            received.store(signal, ordering: .sequentiallyConsistent)
            switch progress.interrupt() {
            case .endNow:
                line.clear()
                _exit(end(signal).rawValue)
            case .stopAtBatch:
                Output.error("interrupted: finishing the write under way")
            }
        }
    }

    /// The status after an interrupt taken while writing; `nil` when there was none.
    var interruptedStatus: ExitStatus? {
        let signal = received.load(ordering: .sequentiallyConsistent)
        return signal == 0 ? nil : ExitStatus.interrupted(by: signal)
    }

    /// Clears the progress line: the work's result follows.
    func finish() {
        line.clear()
    }
}
