/// The JSON objects of reduced actions, each as ``BusAction/json`` serializes it, in one buffer.
///
/// The journal's writer makes one for every group it writes, from the lines it writes anyway
/// (an object is a line's body), on its own thread; on a bus without a journal the router
/// makes one when a stream first needs a batch's objects. Watchers and event streams copy an
/// action's object from here (``ActionLine``) instead of writing the action again, and the
/// store's reducing task, the one serial stage of the action path, never writes it.
final class EncodedBatch: Sendable {
    /// Where one object lies in ``bytes``.
    struct Span: Sendable {
        let start: UInt32
        let end: UInt32
    }

    let bytes: [UInt8]
    /// Each action's object, in the order the actions were written.
    let spans: [Span]

    init(bytes: [UInt8], spans: [Span]) {
        self.bytes = bytes
        self.spans = spans
    }

    /// Writes the objects of `actions` into one buffer; `nil` past 4 GiB, a batch no bus
    /// reduces (its actions are then written where they are needed).
    static func encode(_ actions: [BusAction]) -> EncodedBatch? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(actions.count * 128)
        var spans: [Span] = []
        spans.reserveCapacity(actions.count)
        var times = TimestampText()
        for index in actions.indices {
            let start = bytes.count
            JournalLine.appendObject(actions[index], times: &times, to: &bytes)
            guard bytes.count <= Int(UInt32.max) else { return nil }
            spans.append(Span(start: UInt32(truncatingIfNeeded: start), end: UInt32(truncatingIfNeeded: bytes.count)))
        }
        return EncodedBatch(bytes: bytes, spans: spans)
    }

    /// The length of the object at `index` of ``spans``.
    func objectLength(at index: Int) -> Int {
        Int(spans[index].end) - Int(spans[index].start)
    }

    /// Calls `body` with the bytes of the object at `index` of ``spans``.
    func withObject<Result>(at index: Int, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        let span = spans[index]
        return bytes.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[Int(span.start)..<Int(span.end)])) }
    }

    /// Appends the object at `index` of ``spans``.
    func appendObject(at index: Int, to output: inout [UInt8]) {
        let span = spans[index]
        bytes.withUnsafeBufferPointer { bytes in
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[Int(span.start)..<Int(span.end)]))
        }
    }
}

/// The objects of one reduced batch in an ``EncodedBatch`` (a written group holds several
/// batches): from `offset` on, one per action, `count` of them. It travels with its batch
/// (``BatchCommit/written``), so it always belongs to the actions it is used for.
struct EncodedRun: Sendable {
    let batch: EncodedBatch
    let offset: Int
    let count: Int

    /// One line per action of the run's batch, `actions`.
    func lines(of actions: [BusAction]) -> [ActionLine] {
        actions.indices.map { ActionLine(id: actions[$0].id, batch: batch, index: offset + $0) }
    }
}

/// A reduced action as the streams that send it as text need it: its id and its JSON object.
package struct ActionLine: Sendable {
    /// The action's sequence number.
    package let id: UInt64
    let batch: EncodedBatch
    let index: Int

    /// Appends the action's JSON object, as ``BusAction/json`` serializes it.
    package func appendObject(to output: inout [UInt8]) {
        batch.appendObject(at: index, to: &output)
    }

    /// The length of the action's JSON object.
    package var objectLength: Int { batch.objectLength(at: index) }

    /// Calls `body` with the bytes of the action's JSON object.
    package func withObject<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        batch.withObject(at: index, body)
    }
}
