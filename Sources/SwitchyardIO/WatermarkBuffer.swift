/// The queue between a producer on the loop and a consumer task, with the decisions of
/// backpressure: a pure state machine, tested without threads.
///
/// The producer is told to pause when ``highWatermark`` elements wait and is resumed once the
/// consumer has taken them down to ``lowWatermark``, so a slow consumer stops the reads (and
/// the kernel's buffers push back on the peer) instead of growing memory, and the gap between
/// the marks keeps a busy stream from toggling on every element.
package struct WatermarkBuffer<Element> {
    /// What the producer should do after a push.
    package enum PushResult: Sendable, Hashable {
        /// Keep producing.
        case more
        /// Stop until resumed.
        case pause
    }

    /// The count at which the producer is paused (at least 1).
    package let highWatermark: Int
    /// The count at or below which a paused producer is resumed (below ``highWatermark``).
    package let lowWatermark: Int
    private var elements: [Element] = []
    private var head = 0
    /// Whether the producer is paused now.
    package private(set) var isProducerPaused = false

    /// Creates an empty buffer.
    package init(highWatermark: Int, lowWatermark: Int) {
        precondition(highWatermark >= 1 && lowWatermark >= 0 && lowWatermark < highWatermark,
                     "watermarks need 0 <= low < high")
        self.highWatermark = highWatermark
        self.lowWatermark = lowWatermark
    }

    /// How many elements wait.
    package var count: Int { elements.count - head }

    /// Adds an element; the producer must pause when told so (more pushes are still kept).
    package mutating func push(_ element: Element) -> PushResult {
        elements.append(element)
        if count >= highWatermark { isProducerPaused = true }
        return isProducerPaused ? .pause : .more
    }

    /// Takes the oldest element; `resume` is `true` when the producer should start again.
    package mutating func pop() -> (element: Element?, resume: Bool) {
        guard head < elements.count else { return (nil, false) }
        let element = elements[head]
        head += 1
        if head == elements.count {
            elements.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 1024, head * 2 >= elements.count {
            elements.removeFirst(head)
            head = 0
        }
        guard isProducerPaused, count <= lowWatermark else { return (element, false) }
        isProducerPaused = false
        return (element, true)
    }
}

extension WatermarkBuffer: Sendable where Element: Sendable {}
