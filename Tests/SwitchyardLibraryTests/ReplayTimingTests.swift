import Foundation
import SwitchyardBus
import SwitchyardTesting
import Synchronization
import Testing

/// Replay timing on a manual clock: ``ReplayFeed`` pacing and ``Store`` replays.
struct ReplayTimingTests {
    private func recorded(_ id: UInt64, at seconds: Double, cause: UInt64? = nil) -> BusAction {
        BusAction(type: "test/a", payload: .integer(Int64(id)), id: id, time: Date(timeIntervalSince1970: 1_700_000_000 + seconds),
                  source: "test", cause: cause)
    }

    /// Speeds the command line accepts, and what it refuses.
    @Test(arguments: [("50", 50.0), ("0.5", 0.5), ("x50", 50.0), ("50x", 50.0), ("0", nil), ("-2", nil), ("fast", nil), ("inf", nil), ("nan", nil)])
    func speeds(text: String, speed: Double?) {
        #expect(ReplayPace.parseSpeed(text) == speed)
    }

    /// Each action is due at its recorded distance from the first divided by the speed,
    /// counted from the start: a late wake-up does not push later actions back (no drift).
    @Test func pacedAgainstTheStartInstant() async throws {
        let clock = ManualClock()
        let dispatched = Mutex<[(UInt64, Duration)]>([])
        let actions = [recorded(1, at: 0), recorded(2, at: 10), recorded(3, at: 20), recorded(4, at: 15)]
        let feed = Task {
            await ReplayFeed(actions: actions, pace: ReplayPace(speed: 10)).run(on: clock) { action in
                let id = UInt64(dispatched.withLock { $0.count } + 100)
                dispatched.withLock { $0.append((action.id, clock.now.offset)) }
                return id
            }
        }
        #expect(await clock.waitForSleepers(atLeast: 1))
        #expect(dispatched.withLock { $0.map(\.0) } == [1])
        // Wake late: 1.7 s instead of 1 s. Action 3 is still due at 2 s, not 2.7 s.
        clock.advance(to: .init(offset: .milliseconds(1700)))
        #expect(await clock.waitForSleepers(atLeast: 1))
        #expect(clock.nextDeadline == .init(offset: .seconds(2)))
        clock.advance(to: .init(offset: .seconds(2)))
        let outcome = await feed.value
        let times = dispatched.withLock { $0 }
        #expect(times.map(\.0) == [1, 2, 3, 4])
        #expect(times.map(\.1) == [.zero, .milliseconds(1700), .seconds(2), .seconds(2)])
        #expect(outcome.replayed == 4)
        #expect(outcome.firstID == 100 && outcome.lastID == 103)
    }

    /// Causes follow the replayed copies; a cause that was not replayed becomes nil.
    @Test func causesFollowTheReplayedCopies() async {
        let actions = [recorded(5, at: 0, cause: 2), recorded(6, at: 0, cause: 5), recorded(9, at: 0, cause: 6)]
        let causes = Mutex<[UInt64?]>([])
        let outcome = await ReplayFeed(actions: actions, pace: .asFastAsPossible).run(on: ManualClock()) { action in
            causes.withLock { $0.append(action.cause) }
            return UInt64(causes.withLock { $0.count })
        }
        #expect(causes.withLock { $0 } == [nil, 1, 2])
        #expect(!outcome.stoppedEarly)
    }

    /// A bus that stops taking actions, or a step prompt that ends, ends the feed early.
    @Test func feedEndsEarly() async {
        let actions = (1...3).map { recorded($0, at: Double($0)) }
        let refused = await ReplayFeed(actions: actions, pace: .asFastAsPossible).run(on: ManualClock()) { action in
            action.id == 2 ? nil : action.id
        }
        #expect(refused.replayed == 1 && refused.stoppedEarly)
        let stepped = await ReplayFeed(actions: actions, pace: ReplayPace(speed: 1)).run(on: ManualClock(), step: { $0.id < 3 }) { $0.id }
        #expect(stepped.replayed == 2 && stepped.stoppedEarly)
    }

    /// `Store.replay` returns the state after each action; with a manual clock it advances
    /// time to each action's offset first, never backwards.
    @Test func storeReplay() async {
        let clock = ManualClock()
        let times = Mutex<[Duration]>([])
        let store = Store<Int, Int>(initialState: 0) { state, action in
            state += action
            times.withLock { $0.append(clock.now.offset) }
        }
        #expect(await store.replay([1, 2, 3]) == [1, 3, 6])
        times.withLock { $0 = [] }
        let recorded = [RecordedAction(10, at: .seconds(1)), RecordedAction(20, at: .seconds(5)), RecordedAction(30, at: .seconds(4))]
        #expect(await store.replay(recorded, advancing: clock) == [16, 36, 66])
        #expect(times.withLock { $0 } == [.seconds(1), .seconds(5), .seconds(5)])
    }

    /// The paths where two JSON values differ, numbers by value.
    @Test func jsonDifferences() {
        let left: JSON = ["a": ["b": 1, "c": [1, 2]], "d": "x"]
        let right: JSON = ["a": ["b": 1.0, "c": [1, 3, 4]], "e": true]
        #expect(JSONDifference.between(left, right).map(\.path) == ["a.c.1", "a.c.2", "d", "e"])
        #expect(JSONDifference.between(left, left).isEmpty)
        #expect(JSONDifference.between(left, right, limit: 1).count == 1)
    }
}
