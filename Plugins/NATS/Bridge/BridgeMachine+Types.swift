import SwitchyardBus

extension BridgeMachine {
    /// What the machine is built from.
    struct Configuration: Sendable {
        var mode: NATSMode
        var mapping: SubjectMapping
        /// The subject patterns received.
        var subscriptions: [SubjectPattern]
        /// The subjects published to, for the stream coverage check.
        var published: [SubjectPattern]
        /// The most actions held for sending.
        var capacity: Int
        var overflow: OutboxOverflow
        /// The most unacknowledged JetStream publishes.
        var window: Int
        /// Messages asked for per pull request.
        var batch: Int
        /// How long a pull request stays open on the server.
        var expires: Duration
        /// How long an API request or a publish may wait for its reply.
        var requestTimeout: Duration
        /// The stream (JetStream mode only).
        var stream: StreamConfiguration?
        /// The consumer (JetStream mode with subscriptions only).
        var consumer: ConsumerConfiguration?
    }

    /// A message to dispatch on the bus, and, for JetStream, where to acknowledge it.
    struct Delivery: Sendable, Hashable {
        var message: NATSMessage
        var ackSubject: String?
    }

    /// What the bridge must do after an input.
    struct Effects: Sendable {
        /// Bytes to write to the connection, in order.
        var bytes: [UInt8] = []
        /// Messages to dispatch, in order; acknowledge them afterwards.
        var deliveries: [Delivery] = []
        /// Things to tell.
        var reports: [BridgeReport] = []
        /// Set when the connection must be closed, with the reason (a JetStream setup that
        /// failed, a consumer deleted under the bridge); the bridge reports it when the
        /// connection has ended.
        var close: String?
        /// Whether the bridge just became ready: connected, and JetStream set up.
        var becameReady = false
        /// JetStream publishes settled for good, by action id: stored (or a duplicate of a
        /// stored one), refused and reported, or too large to send and reported.
        var settled: [UInt64] = []
    }
}

extension BridgeMachine.Effects {
    /// Adds `other`'s effects after these, as if both inputs had been one.
    mutating func absorb(_ other: Self) {
        bytes += other.bytes
        deliveries += other.deliveries
        reports += other.reports
        close = close ?? other.close
        becameReady = becameReady || other.becameReady
        settled += other.settled
    }
}
