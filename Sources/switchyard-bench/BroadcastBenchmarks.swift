import SwitchyardBus
import SwitchyardStreams

/// The `broadcast` benchmark cases.
///
/// `broadcast.fanout`: one producer `deliver`s integers (lossless) to N subscribers, each consumed
/// by its own task; the figure is elements sent per second until every subscriber received all
/// of them. The baseline is one `AsyncStream` per subscriber, the producer yielding each element
/// to every continuation.
func broadcastBenchmarks() -> [BenchmarkCase] {
    [
        fanout(subscribers: 1, count: 4_000_000, baselineCount: 1_000_000, target: 15_000_000),
        fanout(subscribers: 8, count: 2_000_000, baselineCount: 200_000, target: 3_000_000, ratioTarget: 25),
    ]
}

private func fanout(subscribers: Int, count: Int, baselineCount: Int, target: Double, ratioTarget: Double? = nil) -> BenchmarkCase {
    BenchmarkCase(
        name: "broadcast.fanout",
        subscribers: subscribers,
        unit: "elements/s",
        target: target,
        ratioTarget: ratioTarget,
        measure: { await broadcastFanout(subscribers: subscribers, count: count) },
        baseline: { await asyncStreamFanout(subscribers: subscribers, count: baselineCount) }
    )
}

private func broadcastFanout(subscribers: Int, count: Int) async -> Double {
    let broadcast = Broadcast<Int>()
    let subscriptions = (0..<subscribers).map { _ in broadcast.subscribe() }
    return await throughput(count: count) {
        let received = await fanOut(to: subscriptions) {
            for element in 0..<count {
                await broadcast.deliver(element)
            }
            broadcast.finish()
        }
        for each in received {
            precondition(each == count, "broadcast.fanout: a subscriber received \(each) of \(count)")
        }
    }
}

private func asyncStreamFanout(subscribers: Int, count: Int) async -> Double {
    let streams = (0..<subscribers).map { _ in AsyncStream<Int>.makeStream() }
    return await throughput(count: count) {
        let received = await fanOut(to: streams.map(\.stream)) {
            for element in 0..<count {
                for (_, continuation) in streams {
                    continuation.yield(element)
                }
            }
            for (_, continuation) in streams {
                continuation.finish()
            }
        }
        for each in received {
            precondition(each == count, "broadcast.fanout baseline: a stream received \(each) of \(count)")
        }
    }
}
