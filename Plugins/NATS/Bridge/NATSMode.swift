/// How the bridge moves actions through NATS.
public enum NATSMode: String, Sendable, Hashable, CaseIterable {
    /// Core NATS: at most once. Actions published while a bus is offline are not kept for it.
    case core
    /// JetStream: at least once. Actions are stored in a stream; each bus reads them through
    /// a durable consumer and acknowledges them only once they are reduced on the bus.
    case jetstream
}
