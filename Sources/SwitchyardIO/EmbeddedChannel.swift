/// A ``StreamChannel`` in memory for tests: the test ``feed(_:)``s what the peer sends and
/// reads what the handler wrote from ``written``; ``writeCapacity`` makes the "socket" fill up
/// so backpressure paths run too.
package final class EmbeddedChannel: StreamChannel {
    /// Hears what arrives.
    package var handler: (any StreamHandler)?
    /// The bytes the handler wrote and the test has not taken.
    package private(set) var written: [UInt8] = []
    /// How many more bytes a write may take before the channel is "full"; `nil` is no limit.
    package var writeCapacity: Int?
    /// Whether the channel was closed.
    package private(set) var isClosed = false
    /// Whether the peer is gone: writes fail.
    package var isPeerGone = false
    package private(set) var isHungUp = false
    package var isReading = true {
        didSet { if isReading { deliver() } }
    }
    package var wantsWritable = false
    package let scheduler: any LoopScheduler
    private var inbound: [UInt8] = []
    private var inboundEnded = false
    private var endDelivered = false
    private var delivering = false

    /// Creates a channel on `loop`.
    package init(loop: EmbeddedLoop) {
        scheduler = loop
    }

    /// The peer sends `bytes`: handed to the handler now if it is reading, else when it
    /// starts again.
    package func feed(_ bytes: some Sequence<UInt8>) {
        inbound.append(contentsOf: bytes)
        deliver()
    }

    /// The peer closes its side (`hangUp`: both sides, so writes fail too).
    package func feedEnd(hangUp: Bool = false) {
        inboundEnded = true
        if hangUp, !isHungUp {
            isHungUp = true
            isPeerGone = true
            handler?.hungUp()
        }
        deliver()
    }

    /// Takes what the handler wrote.
    package func takeWritten() -> [UInt8] {
        defer { written = [] }
        return written
    }

    /// The peer reads: `count` more bytes fit, and a handler waiting to write hears so.
    package func makeRoom(_ count: Int) {
        if let capacity = writeCapacity { writeCapacity = capacity + count }
        if wantsWritable, !isClosed { handler?.writable() }
    }

    package func write(_ bytes: UnsafeRawBufferPointer) -> Int? {
        guard !isClosed, !isPeerGone else { return nil }
        let count = min(bytes.count, writeCapacity ?? bytes.count)
        written.append(contentsOf: bytes[..<count])
        if let capacity = writeCapacity { writeCapacity = capacity - count }
        return count
    }

    package func close() {
        isClosed = true
        handler = nil
    }

    /// Hands inbound bytes over in chunks while the handler reads, as the real channel does.
    private func deliver() {
        guard !delivering else { return }
        delivering = true
        defer { delivering = false }
        while isReading, !isClosed, !inbound.isEmpty {
            let chunk = Array(inbound.prefix(64 << 10))
            inbound.removeFirst(chunk.count)
            chunk.withUnsafeBytes { handler?.received($0) }
        }
        if isReading, !isClosed, inbound.isEmpty, inboundEnded, !endDelivered {
            endDelivered = true
            handler?.receivedEnd(error: nil)
        }
    }
}
