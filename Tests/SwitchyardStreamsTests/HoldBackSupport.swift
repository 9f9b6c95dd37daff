import SwitchyardTesting
import Testing

extension TestSource where Element == Int, Failure == Never {
    /// Reads `iterator`, over an operator on this source, to its end, expecting the values
    /// 0, 1, 2… this source was sent (`total` of them), and returns the most elements the
    /// operator ever took from it ahead of the consumer: for tests that a slow consumer holds
    /// the upstream back.
    func largestLead<Iterator: AsyncIteratorProtocol>(reading iterator: inout Iterator, sent total: Int) async -> Int
    where Iterator.Element == Int, Iterator.Failure == Never {
        var consumed = 0
        var largestLead = 0
        while let value = await iterator.next(isolation: nil) {
            #expect(value == consumed)
            consumed += 1
            largestLead = Swift.max(largestLead, total - bufferedCount - consumed)
        }
        #expect(consumed == total)
        return largestLead
    }
}
