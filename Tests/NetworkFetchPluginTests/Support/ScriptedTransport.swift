import Synchronization

@testable import NetworkFetchPlugin

/// A transport that answers from a script, for fetch logic tested without I/O.
final class ScriptedTransport: HTTPTransport {
    enum Step: Sendable {
        case answer(TransportResult)
        /// Never answers; returns `.cancelled` when the caller is cancelled.
        case hang
    }

    private let steps: Mutex<[Step]>
    private let sent = Mutex(0)

    init(_ steps: [Step]) {
        self.steps = Mutex(steps)
    }

    /// Requests sent so far.
    var sendCount: Int { sent.withLock { $0 } }

    func send(_ request: PreparedRequest, maxResponseBytes: Int, timeout: Duration) async -> TransportResult {
        sent.withLock { $0 += 1 }
        let step = steps.withLock { $0.isEmpty ? Step.hang : $0.removeFirst() }
        switch step {
        case .answer(let result):
            return result
        case .hang:
            let (stream, _) = AsyncStream<Never>.makeStream()
            for await _ in stream {}
            return .cancelled
        }
    }
}
