import Testing

@testable import ExecPlugin

/// The bounded queue of lines for a child's stdin.
struct InputQueueTests {
    private func bytes(_ text: String) -> [UInt8] {
        Array((text + "\n").utf8)
    }

    private func drain(_ queue: inout InputQueue) -> String {
        var text = ""
        while let batch = queue.takeBatch(maximumBytes: 1 << 20) {
            text += String(decoding: batch.bytes, as: UTF8.self)
        }
        return text
    }

    /// A full queue drops the oldest line and reports only the first drop of an episode.
    @Test func dropsOldest() {
        var queue = InputQueue(capacity: 2, overflow: .dropOldest)
        #expect(queue.push(bytes("a")) == .queued)
        #expect(queue.push(bytes("b")) == .queued)
        #expect(queue.push(bytes("c")) == .overflowed(startsEpisode: true))
        #expect(queue.push(bytes("d")) == .overflowed(startsEpisode: false))
        #expect(drain(&queue) == "c\nd\n")
        #expect(queue.counters.dropped == 2)
    }

    /// A full queue drops the arriving line with the drop-newest policy.
    @Test func dropsNewest() {
        var queue = InputQueue(capacity: 2, overflow: .dropNewest)
        _ = queue.push(bytes("a"))
        _ = queue.push(bytes("b"))
        #expect(queue.push(bytes("c")) == .overflowed(startsEpisode: true))
        #expect(drain(&queue) == "a\nb\n")
    }

    /// An episode ends only when a batch has been written with nothing queued behind it.
    @Test func episodesEndWhenChildCatchesUp() {
        var queue = InputQueue(capacity: 1, overflow: .dropOldest)
        _ = queue.push(bytes("a"))
        #expect(queue.push(bytes("b")) == .overflowed(startsEpisode: true))
        let batch = queue.takeBatch(maximumBytes: 100)
        _ = queue.push(bytes("c"))
        #expect(queue.push(bytes("d")) == .overflowed(startsEpisode: false))
        queue.recordWritten(lines: batch?.lines ?? 0)
        _ = queue.takeBatch(maximumBytes: 100)
        queue.recordWritten(lines: 1)
        _ = queue.push(bytes("e"))
        #expect(queue.push(bytes("f")) == .overflowed(startsEpisode: true))
    }

    /// Batches join whole lines up to the byte limit but always hold at least one line.
    @Test func batchesWholeLines() {
        var queue = InputQueue(capacity: 10, overflow: .dropOldest)
        for text in ["aaaa", "bb", "cccccccccc"] {
            _ = queue.push(bytes(text))
        }
        let first = queue.takeBatch(maximumBytes: 8)
        #expect(first?.lines == 2)
        #expect(first.map { String(decoding: $0.bytes, as: UTF8.self) } == "aaaa\nbb\n")
        #expect(queue.takeBatch(maximumBytes: 8)?.lines == 1)
        #expect(queue.takeBatch(maximumBytes: 8) == nil)
    }

    /// Closing discards what is queued and every later line, and counts them.
    @Test func closeDiscards() {
        var queue = InputQueue(capacity: 10, overflow: .dropOldest)
        _ = queue.push(bytes("a"))
        _ = queue.push(bytes("b"))
        queue.recordWritten(lines: 3)
        queue.close(unwrittenLines: 1)
        #expect(queue.push(bytes("c")) == .closed)
        #expect(queue.counters == InputCounters(written: 3, dropped: 0, discarded: 4))
    }
}
