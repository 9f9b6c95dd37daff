/// The JSON objects of a reduced batch's actions, ``BusAction/json`` as the journal writes it,
/// written once into one buffer by the store's reducing task before the batch goes to the
/// journal.
///
/// Each action of the batch then carries its own bytes (``EncodedAction``), so its journal line
/// and every watcher's line copy them instead of writing the action again: writing an action
/// cost about as much as the rest of what the journal and a watcher do with it. The bytes
/// follow the action wherever it goes and are dropped as soon as any of its fields changes, so
/// they always spell the action as it is.
final class EncodedBatch: Sendable {
    let bytes: [UInt8]

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Writes every action's object into one buffer and gives each its bytes.
    static func encode(_ actions: inout [BusAction]) {
        guard !actions.isEmpty else { return }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(actions.count * 128)
        var ends: [UInt32] = []
        ends.reserveCapacity(actions.count)
        for index in actions.indices {
            JournalLine.writeObject(actions[index], to: &bytes)
            ends.append(UInt32(truncatingIfNeeded: bytes.count))
        }
        // A batch past 4 GiB is not one the bus can reduce; its actions are simply written
        // again where they are needed.
        guard bytes.count <= Int(UInt32.max) else { return }
        let batch = EncodedBatch(bytes: bytes)
        var start: UInt32 = 0
        for index in actions.indices {
            actions[index].encoded = EncodedAction(batch: batch, start: start, end: ends[index])
            start = ends[index]
        }
    }
}

/// One action's bytes in its ``EncodedBatch``: its JSON object, without a newline.
struct EncodedAction: Sendable {
    let batch: EncodedBatch
    let start: UInt32
    let end: UInt32

    /// Appends the object's bytes.
    func append(to output: inout [UInt8]) {
        batch.bytes.withUnsafeBufferPointer { bytes in
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[Int(start)..<Int(end)]))
        }
    }
}
