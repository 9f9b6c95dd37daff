/// Which action goes when the outgoing buffer is full.
public enum OutboxOverflow: String, Sendable, Hashable, CaseIterable {
    /// The oldest waiting action, so the freshest state gets through. The default.
    case dropOldest = "drop-oldest"
    /// The action that did not fit, so the oldest history gets through.
    case dropNewest = "drop-newest"
}
