/// Reads each of `streams` in a task of its own while `produce` runs, counting what each
/// receives until it ends or has `limit` elements (a store's streams never end), and returns
/// the counts once every reader is done. The fan-out cases and their baselines measure
/// through this, so both sides pay the same for reading.
func fanOut<Stream: AsyncSequence & Sendable>(
    to streams: [Stream], upTo limit: Int = .max, produce: () async -> Void
) async -> [Int] where Stream.Failure == Never {
    await withTaskGroup(of: Int.self) { group in
        for stream in streams {
            group.addTask {
                var received = 0
                for await _ in stream {
                    received += 1
                    if received == limit { break }
                }
                return received
            }
        }
        await produce()
        return await group.reduce(into: []) { $0.append($1) }
    }
}
