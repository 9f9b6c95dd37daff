import Synchronization
import Testing
@testable import SwitchyardIO

/// The backpressure decisions of the loop-to-task bridge.
struct WatermarkBufferTests {
    /// The producer pauses at the high mark and resumes only at the low mark.
    @Test func pausesAtHighResumesAtLow() {
        var buffer = WatermarkBuffer<Int>(highWatermark: 4, lowWatermark: 1)
        #expect((0..<3).map { buffer.push($0) } == [.more, .more, .more])
        #expect(buffer.push(3) == .pause)
        #expect(buffer.push(4) == .pause)
        #expect(buffer.pop().resume == false)
        #expect(buffer.pop().resume == false)
        #expect(buffer.pop().resume == false)
        let (element, resume) = buffer.pop()
        #expect(element == 3 && resume)
        #expect(buffer.push(5) == .more)
        #expect(buffer.pop().element == 4)
        #expect(buffer.pop().element == 5)
        #expect(buffer.pop().element == nil)
    }

    /// Many elements pass in order through the compaction of the queue.
    @Test func keepsOrderAcrossCompaction() {
        var buffer = WatermarkBuffer<Int>(highWatermark: 10_000, lowWatermark: 10)
        var out: [Int] = []
        for index in 0..<5_000 {
            _ = buffer.push(index)
            if index % 3 == 0, let element = buffer.pop().element { out.append(element) }
        }
        while let element = buffer.pop().element { out.append(element) }
        #expect(out == Array(0..<5_000))
    }
}

/// The bridge itself, with a producer thread and a consumer task.
struct AsyncBridgeTests {
    /// Everything yielded arrives in order, the producer is paused and resumed, and the
    /// sequence ends after finish.
    @Test func deliversInOrderWithBackpressure() async {
        let resumes = Atomic<Int>(0)
        let bridge = AsyncBridge<Int>(highWatermark: 8, lowWatermark: 2) { resumes.add(1, ordering: .relaxed) }
        let producer = Task.detached {
            var pauses = 0
            for index in 0..<1_000 {
                if bridge.yield(index) == .pause {
                    pauses += 1
                    while bridge.isTerminated == false, resumes.load(ordering: .relaxed) < pauses { await Task.yield() }
                }
            }
            bridge.finish()
            return pauses
        }
        var received: [Int] = []
        for await element in bridge { received.append(element) }
        let pauses = await producer.value
        #expect(received == Array(0..<1_000))
        #expect(resumes.load(ordering: .relaxed) == pauses)
    }

    /// A cancelled consumer ends with nil, and the producer learns the consumer is gone.
    @Test func cancelledConsumerTerminates() async {
        let bridge = AsyncBridge<Int>(highWatermark: 2, lowWatermark: 1) {}
        let consumer = Task {
            var count = 0
            for await _ in bridge { count += 1 }
            return count
        }
        consumer.cancel()
        #expect(await consumer.value == 0)
        #expect(bridge.yield(1) == .terminated)
    }
}
