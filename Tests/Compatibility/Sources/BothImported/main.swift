import AsyncAlgorithms
import SwitchyardStreams

enum URLError: Error {
    case timedOut
}

// Every operator both libraries name is called unqualified; each line compiles only if
// overload resolution picks one (swift-async-algorithms', since ours are disfavored). The
// annotations check which one won. Switchyard-only operators are used alongside.

let numbers = [1, 1, 2, 3, 3, 4].async

let deduplicated: AsyncAlgorithms.AsyncRemoveDuplicatesSequence<AsyncSyncSequence<[Int]>> = numbers.removeDuplicates()
let debounced: AsyncAlgorithms.AsyncDebounceSequence<AsyncSyncSequence<[Int]>, ContinuousClock> = numbers.debounce(for: .milliseconds(1))
let throttled = numbers.throttle(for: .milliseconds(1), clock: ContinuousClock(), latest: true)
let zipped: AsyncZip2Sequence<AsyncSyncSequence<[Int]>, AsyncSyncSequence<[Int]>> = zip(numbers, numbers)
let merged: AsyncMerge2Sequence<AsyncSyncSequence<[Int]>, AsyncSyncSequence<[Int]>> = merge(numbers, numbers)
let combined: AsyncCombineLatest2Sequence<AsyncSyncSequence<[Int]>, AsyncSyncSequence<[Int]>> = combineLatest(numbers, numbers)
let switched = numbers.flatMapLatest { [$0].async }
let shared = numbers.share()
let mapped = AsyncFail(of: Int.self, CancellationError()).mapError { _ in URLError.timedOut }
let switchedToFailing = numbers.flatMapLatest { _ in AsyncFail(of: Int.self, CancellationError()) }
let pairs: AsyncAlgorithms.AsyncAdjacentPairsSequence<AsyncSyncSequence<[Int]>> = numbers.adjacentPairs()
let separated: AsyncAlgorithms.AsyncInterspersedSequence<AsyncSyncSequence<[Int]>> = numbers.interspersed(with: 0)
let chunks: AsyncChunksOfCountSequence<AsyncSyncSequence<[Int]>, [Int]> = numbers.chunks(ofCount: 2)
let chunksOrTick = numbers.chunks(ofCount: 2, or: .repeating(every: .milliseconds(1)))
let chunkedByTick = numbers.chunked(by: .repeating(every: .milliseconds(1)))

// Switchyard-only vocabulary in the same program.
let broadcast = Broadcast<Int>()
let subscription = broadcast.subscribe()
let paired = subscription.withLatestFrom(CurrentValue("draft"))
let flattened = subscription.flatMap(maxConcurrent: 2) { AsyncJust($0) }
let ownZip = subscription.zip(AsyncJust(0))
let recovered = AsyncFail(of: Int.self, CancellationError()).replaceError(with: 0)
let batches = numbers.collect(count: 2)
let ownTicks = numbers.chunked(by: AsyncTimer.repeating(every: .milliseconds(1)))
let delayed = subscription.delay(for: .milliseconds(1))
let buffered = subscription.buffer(size: 8, whenFull: .dropOldest)

var seen: [Int] = []
for await value in deduplicated { seen.append(value) }
precondition(seen == [1, 2, 3, 4], "removeDuplicates gave \(seen)")
var recoveredValues: [Int] = []
for await value in recovered { recoveredValues.append(value) }
precondition(recoveredValues == [0], "replaceError gave \(recoveredValues)")
let selected = await onlySwitchyardWithModuleSelectors()
precondition(selected == [1, 2, 3], "our removeDuplicates gave \(selected)")
_ = (pairs, separated, chunks, chunksOrTick, chunkedByTick, ownTicks, batches, delayed, buffered)
_ = (debounced, throttled, zipped, merged, combined, switched, switchedToFailing, shared, mapped, paired, flattened, ownZip)
print("SwitchyardStreams and AsyncAlgorithms coexist")
