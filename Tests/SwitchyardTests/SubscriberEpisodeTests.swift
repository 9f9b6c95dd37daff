import Testing

@testable import Switchyard
@testable import SwitchyardBus

/// A subscriber's episodes of holding the store up or dropping, with hysteresis: one line when
/// an episode starts and one when it recovers, driven step by step.
struct SubscriberEpisodeTests {
    /// Repeated stalls, and catching up then falling behind again before a buffer's worth of
    /// actions went by, stay one episode; it ends with its counts after a quiet buffer's worth.
    @Test func oneStartAndOneRecoveryPerEpisode() {
        var episode = SubscriberEpisode(capacity: 4)
        #expect(episode.held(buffered: 5) == .startedHolding(buffered: 5))
        #expect(episode.held(buffered: 5) == nil)
        episode.caughtUp()
        #expect(episode.delivered(3) == nil)
        #expect(episode.held(buffered: 5) == nil)
        episode.caughtUp()
        #expect(episode.delivered(2) == nil)
        #expect(episode.delivered(1) == nil)
        #expect(episode.delivered(1) == .recovered(waits: 3, dropped: 0))
        #expect(episode.isCalm)
        #expect(episode.delivered(10) == nil)
        #expect(episode.held(buffered: 6) == .startedHolding(buffered: 6))
    }

    /// Deliveries while still behind never end an episode; only reading everything starts the
    /// recovery count.
    @Test func recoveryNeedsCatchingUpFirst() {
        var episode = SubscriberEpisode(capacity: 2)
        #expect(episode.dropped(3) == .startedDropping)
        #expect(episode.delivered(100) == nil)
        #expect(episode.dropped(2) == nil)
        episode.caughtUp()
        #expect(episode.delivered(2) == .recovered(waits: 0, dropped: 5))
    }

    /// A subscription that ends during an episode reports it once; a calm one reports nothing.
    @Test func endingReportsAnOpenEpisode() {
        var episode = SubscriberEpisode(capacity: 2)
        #expect(episode.end() == nil)
        _ = episode.held(buffered: 3)
        #expect(episode.end() == .ended(waits: 1, dropped: 0))
        #expect(episode.end() == nil)
    }
}
