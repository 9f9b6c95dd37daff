@testable import SwitchyardStreams
import Testing

struct BroadcastConcurrencyTests {
    struct Tagged: Sendable, Equatable {
        var sender: Int
        var sequence: Int
    }

    /// Checks that `elements` holds every sender's sequence complete and in order.
    static func expectPerSenderOrder(_ elements: [Tagged], senders: Int, perSender: Int) {
        var next = Array(repeating: 0, count: senders)
        for element in elements {
            #expect(element.sequence == next[element.sender])
            next[element.sender] = element.sequence + 1
        }
        #expect(next == Array(repeating: perSender, count: senders))
    }

    /// With several tasks delivering through small buffers, every subscriber receives every
    /// element, each sender's in its order.
    @Test(arguments: [1, 7, 1024])
    func concurrentDeliversKeepPerSenderOrder(bufferSize: Int) async {
        let senders = 4
        let perSender = 5_000
        let broadcast = Broadcast<Tagged>()
        let subscriptions = (0..<3).map { _ in broadcast.subscribe(bufferSize: bufferSize) }
        await withTaskGroup(of: [Tagged]?.self) { group in
            for subscription in subscriptions {
                group.addTask { await subscription.collect() }
            }
            await withTaskGroup(of: Void.self) { producers in
                for sender in 0..<senders {
                    producers.addTask {
                        for sequence in 0..<perSender {
                            await broadcast.deliver(Tagged(sender: sender, sequence: sequence))
                        }
                    }
                }
            }
            broadcast.finish()
            for await elements in group {
                if let elements {
                    Self.expectPerSenderOrder(elements, senders: senders, perSender: perSender)
                }
            }
        }
        #expect(subscriptions.allSatisfy { $0.droppedCount == 0 })
    }

    /// Synchronous sends from several tasks into buffers large enough keep per-sender order.
    @Test func concurrentSendsKeepPerSenderOrder() async {
        let senders = 4
        let perSender = 2_000
        let broadcast = Broadcast<Tagged>()
        let subscription = broadcast.subscribe(bufferSize: senders * perSender)
        await withTaskGroup(of: Void.self) { producers in
            for sender in 0..<senders {
                producers.addTask {
                    for sequence in 0..<perSender {
                        broadcast.send(Tagged(sender: sender, sequence: sequence))
                    }
                }
            }
        }
        broadcast.finish()
        Self.expectPerSenderOrder(await subscription.collect(), senders: senders, perSender: perSender)
    }

    /// Consumers that cancel themselves midway never leave delivering producers stuck.
    @Test func consumersLeavingMidwayNeverStrandProducers() async {
        let broadcast = Broadcast<Int>()
        let subscriptions = (0..<4).map { _ in broadcast.subscribe(bufferSize: 2) }
        let survivor = broadcast.subscribe(bufferSize: 2)
        await withTaskGroup(of: Void.self) { group in
            for (index, subscription) in subscriptions.enumerated() {
                group.addTask {
                    var count = 0
                    for await _ in subscription {
                        count += 1
                        if count == 100 * (index + 1) {
                            withUnsafeCurrentTask { $0?.cancel() }
                        }
                    }
                }
            }
            group.addTask {
                #expect(await survivor.collect() == Array(0..<2_000))
            }
            for element in 0..<2_000 {
                await broadcast.deliver(element)
            }
            broadcast.finish()
        }
        #expect(broadcast.subscriberCount == 0)
    }
}
