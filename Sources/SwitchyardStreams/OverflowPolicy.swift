/// What a bounded subscriber buffer does when an element arrives and the buffer is full.
///
/// Every policy but ``suspendProducer`` keeps the producer running and counts what it drops.
public enum OverflowPolicy: Sendable, Hashable {
    /// The producer waits for room (only an asynchronous send can wait; a synchronous send
    /// to a full buffer drops the element and counts it).
    case suspendProducer
    /// The oldest buffered element is discarded to make room.
    case dropOldest
    /// The arriving element is discarded.
    case dropNewest
    /// The buffer keeps only the newest element (a capacity of one), the right choice for
    /// values where only the current one matters, such as state.
    case latest
}
