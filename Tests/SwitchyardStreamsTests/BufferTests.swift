@testable import SwitchyardStreams
import Testing

struct BufferTests {
    /// Elements come out in the order they went in.
    @Test func firstInFirstOut() {
        var buffer = _FIFOBuffer<Int>()
        for element in 0..<5 { buffer.append(element) }
        #expect(buffer.count == 5)
        var taken: [Int] = []
        while let element = buffer.popFirst() { taken.append(element) }
        #expect(taken == [0, 1, 2, 3, 4])
        #expect(buffer.isEmpty)
    }

    /// Interleaved `removeFirst` and `append` keep order across compactions and stay bounded.
    @Test func removeFirstCompactsAndKeepsOrder() {
        var buffer = _FIFOBuffer<Int>()
        for element in 0..<10 { buffer.append(element) }
        for element in 10..<10_000 {
            #expect(buffer.removeFirst() == element - 10)
            buffer.append(element)
        }
        #expect(buffer.count == 10)
        #expect(buffer.storage.count <= 64)
        var taken: [Int] = []
        while let element = buffer.popFirst() { taken.append(element) }
        #expect(taken == Array(9_990..<10_000))
    }

    /// `prepend` puts another buffer's live elements first.
    @Test func prependPutsEarlierElementsFirst() {
        var earlier = _FIFOBuffer<Int>()
        for element in 0..<4 { earlier.append(element) }
        _ = earlier.popFirst()
        var later = _FIFOBuffer<Int>()
        later.append(10)
        later.prepend(earlier)
        var taken: [Int] = []
        while let element = later.popFirst() { taken.append(element) }
        #expect(taken == [1, 2, 3, 10])
    }

    /// `removeAll(where:)` removes only matching live elements and reports how many.
    @Test func removeAllWhereKeepsOthersInOrder() {
        var buffer = _FIFOBuffer<Int>()
        for element in 0..<10 { buffer.append(element) }
        _ = buffer.popFirst()
        #expect(buffer.removeAll { $0.isMultiple(of: 2) } == 4)
        var taken: [Int] = []
        while let element = buffer.popFirst() { taken.append(element) }
        #expect(taken == [1, 3, 5, 7, 9])
    }

    /// A drained buffer keeps its capacity for reuse.
    @Test func removeAllKeepsCapacity() {
        var buffer = _FIFOBuffer<Int>()
        for element in 0..<100 { buffer.append(element) }
        let capacity = buffer.storage.capacity
        buffer.removeAll()
        #expect(buffer.isEmpty)
        #expect(buffer.storage.capacity == capacity)
    }
}
