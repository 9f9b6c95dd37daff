import SwitchyardStreams
import Testing

struct OverflowPolicyTests {
    /// The four policies are distinct values.
    @Test func policiesAreDistinct() {
        let policies: Set<OverflowPolicy> = [.suspendProducer, .dropOldest, .dropNewest, .latest]
        #expect(policies.count == 4)
    }
}
