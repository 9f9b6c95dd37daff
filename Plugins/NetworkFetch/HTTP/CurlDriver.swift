import CSwitchyardCurl
import FoundationEssentials
import Synchronization
import SwitchyardIO

/// One libcurl multi handle and the thread that runs it: every request of one network-fetch
/// plugin goes through here, each on its own connection state, so a peer that floods or stalls
/// one transfer holds up no other (FoundationNetworking ran every URLSession of the process on
/// one serial queue, which such a peer could hold).
///
/// The thread starts with the first request and ends after `idleExit` without one; the
/// multi handle, and the connections it keeps for reuse, outlive it. Cancelling a request's
/// task takes it off the wire at once (the thread's poll is woken).
final class CurlDriver: Sendable {
    /// One request to send: no redirects are followed here (``CurlTransport`` does that).
    struct Hop: Sendable {
        var request: PreparedRequest
        var limit: Int
        var timeout: Duration
    }

    private struct Submission: Sendable {
        var id: UInt64
        var hop: Hop
        var continuation: CheckedContinuation<HopOutcome, Never>
    }

    private struct State: Sendable {
        /// The multi handle's address (an opaque handle, kept as a number so the state is
        /// Sendable); nil once cleaned up.
        var multiAddress: UInt?
        var multi: UnsafeMutableRawPointer? { multiAddress.flatMap(UnsafeMutableRawPointer.init(bitPattern:)) }
        var nextID: UInt64 = 0
        var pending: [Submission] = []
        var cancels: [UInt64] = []
        /// Submitted and not yet answered.
        var inFlight: Set<UInt64> = []
        /// Cancelled before submitting: refused when they come.
        var cancelledEarly: Set<UInt64> = []
        var threadRunning = false
        var stopping = false
    }

    /// How long the thread waits for another request before it ends.
    private let idleExit: Duration
    private let state: Mutex<State>

    /// Loads libcurl (once per process) and makes a multi handle whose thread ends after
    /// `idleExit` (default 10 s) without a request; `.failure` says why not, in words for the
    /// plugin's failure actions (libcurl missing, or out of memory).
    static func make(idleExit: Duration = .seconds(10)) -> Result<CurlDriver, LoadFailure> {
        var message = [CChar](repeating: 0, count: 512)
        guard sycurl_load(&message, message.count) == 0 else {
            return .failure(LoadFailure(message: String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)))
        }
        guard let multi = sycurl_multi_init() else { return .failure(LoadFailure(message: "libcurl could not make a multi handle")) }
        return .success(CurlDriver(multi: multi, idleExit: idleExit))
    }

    /// Why requests cannot be sent.
    struct LoadFailure: Error, Sendable, Hashable {
        var message: String
    }

    private init(multi: UnsafeMutableRawPointer, idleExit: Duration) {
        state = Mutex(State(multiAddress: UInt(bitPattern: multi)))
        self.idleExit = idleExit
    }

    deinit {
        // The running thread holds the driver, so none runs now.
        if let multi = state.withLock({ $0.multi }) { _ = sycurl_multi_cleanup(multi) }
    }

    /// Sends one hop and waits for its outcome; ``HopOutcome/finished(_:)`` with
    /// ``TransportResult/cancelled`` when the task is cancelled or the driver shut down.
    func perform(_ hop: Hop) async -> HopOutcome {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        defer { _ = state.withLock { $0.cancelledEarly.remove(id) } }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                submit(Submission(id: id, hop: hop, continuation: continuation))
            }
        } onCancel: {
            cancel(id)
        }
    }

    /// Whether the thread runs now.
    var isThreadRunning: Bool { state.withLock { $0.threadRunning } }

    /// Cancels every request and frees the multi handle once the thread is done with it.
    func shutDown() {
        let idle: UnsafeMutableRawPointer? = state.withLock { state in
            state.stopping = true
            guard let multi = state.multi else { return nil }
            guard !state.threadRunning else {
                _ = sycurl_multi_wakeup(multi)
                return nil
            }
            state.multiAddress = nil
            return multi
        }
        if let idle { _ = sycurl_multi_cleanup(idle) }
    }

    private func submit(_ submission: Submission) {
        enum Step { case refuse, start, queued }
        let step = state.withLock { state -> Step in
            guard !state.stopping, state.multi != nil, state.cancelledEarly.remove(submission.id) == nil else { return .refuse }
            state.pending.append(submission)
            state.inFlight.insert(submission.id)
            guard state.threadRunning else {
                state.threadRunning = true
                return .start
            }
            if let multi = state.multi { _ = sycurl_multi_wakeup(multi) }
            return .queued
        }
        switch step {
        case .refuse: submission.continuation.resume(returning: .finished(.cancelled))
        case .start: startDetachedThread { self.drive() }
        case .queued: break
        }
    }

    private func cancel(_ id: UInt64) {
        let unsent: Submission? = state.withLock { state in
            if let index = state.pending.firstIndex(where: { $0.id == id }) {
                state.inFlight.remove(id)
                return state.pending.remove(at: index)
            }
            if state.inFlight.contains(id) {
                state.cancels.append(id)
                if let multi = state.multi { _ = sycurl_multi_wakeup(multi) }
            } else {
                state.cancelledEarly.insert(id)
            }
            return nil
        }
        unsent?.continuation.resume(returning: .finished(.cancelled))
    }

    /// The thread's loop: take new requests and cancellations, let libcurl move every
    /// transfer along, answer the finished ones, wait for sockets, timers or a wake-up.
    private func drive() {
        nameCurrentThread("network-fetch")
        guard let multi = state.withLock({ $0.multi }) else { return }
        var active: [UInt64: (transfer: CurlTransfer, continuation: CheckedContinuation<HopOutcome, Never>)] = [:]
        var idByHandle: [UnsafeMutableRawPointer: UInt64] = [:]
        var idleSince: ContinuousClock.Instant?

        func remove(_ id: UInt64) -> (transfer: CurlTransfer, continuation: CheckedContinuation<HopOutcome, Never>)? {
            guard let entry = active.removeValue(forKey: id) else { return nil }
            idByHandle[entry.transfer.easy] = nil
            _ = sycurl_multi_remove_handle(multi, entry.transfer.easy)
            entry.transfer.close()
            return entry
        }

        while true {
            let now = ContinuousClock.now
            let idle = active.isEmpty
            let idleLong = idleSince.map { now - $0 >= idleExit } == true
            let (submissions, cancels, stopping, exit) = state.withLock { state in
                if idle, state.pending.isEmpty, idleLong || state.stopping {
                    state.threadRunning = false
                    return ([Submission](), [UInt64](), state.stopping, true)
                }
                defer {
                    state.pending = []
                    state.cancels = []
                }
                return (state.pending, state.cancels, state.stopping, false)
            }
            if exit {
                let finished = state.withLock { state -> UInt? in stopping ? state.multiAddress.take() : nil }
                if let finished, let multi = UnsafeMutableRawPointer(bitPattern: finished) { _ = sycurl_multi_cleanup(multi) }
                return
            }
            var answered: [(UInt64, CheckedContinuation<HopOutcome, Never>, HopOutcome)] = []
            for submission in submissions {
                guard let transfer = CurlTransfer(submission.hop.request, limit: submission.hop.limit, timeout: submission.hop.timeout) else {
                    answered.append((submission.id, submission.continuation, .finished(.network("libcurl could not start a transfer"))))
                    continue
                }
                active[submission.id] = (transfer, submission.continuation)
                idByHandle[transfer.easy] = submission.id
                _ = sycurl_multi_add_handle(multi, transfer.easy)
            }
            for id in cancels {
                if let entry = remove(id) { answered.append((id, entry.continuation, .finished(.cancelled))) }
            }
            if stopping {
                for id in Array(active.keys) {
                    if let entry = remove(id) { answered.append((id, entry.continuation, .finished(.cancelled))) }
                }
            }
            var running: Int32 = 0
            _ = sycurl_multi_perform(multi, &running)
            var code: Int32 = 0
            while let easy = sycurl_multi_next_done(multi, &code) {
                guard let id = idByHandle[easy], let entry = active[id] else { continue }
                let outcome = entry.transfer.outcome(code: code)
                _ = remove(id)
                answered.append((id, entry.continuation, outcome))
            }
            if !answered.isEmpty {
                state.withLock { state in
                    for (id, _, _) in answered { state.inFlight.remove(id) }
                }
                for (_, continuation, outcome) in answered { continuation.resume(returning: outcome) }
            }
            if stopping { continue }
            if active.isEmpty {
                idleSince = idleSince ?? now
            } else {
                idleSince = nil
            }
            var descriptors: Int32 = 0
            let wait = active.isEmpty ? idleExit : .seconds(1)
            _ = sycurl_multi_poll(multi, wait.timeoutMilliseconds, &descriptors)
        }
    }
}
