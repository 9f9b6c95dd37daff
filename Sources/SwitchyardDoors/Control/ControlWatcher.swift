import SwitchyardStreams

/// Streams a watching connection's actions and state into its outbox.
///
/// The subscriptions are made before the `ok` reply goes out, so a client sees every action
/// reduced after it read that reply. A watcher never holds up the bus: its action buffer drops
/// what does not fit. With ``WatchOptions/Overflow/disconnect`` (the default), as soon as
/// anything was dropped, or its outbox is full because the client does not read, it is dropped
/// with one whole `too-slow` error line instead of losing actions silently. With
/// ``WatchOptions/Overflow/dropOldest`` it stays connected and reports the count it lost in a
/// `{"dropped":N,"ok":true}` line before the next line it gets. A stream that ends because the
/// bus stops ends with `{"end":"stopping","ok":true}`, so a client can tell it from a drop.
struct ControlWatcher: Sendable {
    let actions: Broadcast<ActionLine>.Subscription?
    let states: Broadcast<JSON>.Subscription?
    let statePath: String?
    let options: WatchOptions
    let outbox: ConnectionOutbox
    let limits: ControlLimits
    let wake: @Sendable () -> Void

    /// The buffer of actions the watcher asked for, or the server's default.
    var bufferActions: Int { options.buffer ?? limits.watcherBufferActions }

    /// Runs until the bus stops (the outbox is then finished), the watcher is dropped, or the
    /// task is cancelled (the connection closed).
    func run() async {
        let lost = LossCounter()
        await withTaskGroup(of: Void.self) { group in
            if let actions { group.addTask { await streamActions(actions, lost: lost) } }
            if let states, let statePath { group.addTask { await streamState(states, path: statePath, lost: lost) } }
            // The first stream to end decides: the bus stopped, or the watcher was dropped.
            _ = await group.next()
            group.cancelAll()
        }
        if !Task.isCancelled, outbox.append(ControlReply.line(["end": "stopping", "ok": true])) == .queued {
            wake()
        }
        outbox.finish()
        wake()
    }

    /// The most bytes of action lines gathered into one batch: far inside the outbox's
    /// capacity, so a batch an empty outbox takes whole passes it by at most a line.
    private var batchBytes: Int { min(16 << 10, limits.watcherBufferBytes / 4) }

    /// Streams the actions, writing every action the subscription already handed over as one
    /// batch: one outbox append and one wake-up of the loop for the lot, where a line each
    /// cost a lock, a wake-up and often a `send` per action.
    private func streamActions(_ actions: Broadcast<ActionLine>.Subscription, lost: LossCounter) async {
        var batch: [UInt8] = []
        var lines = 0
        var reported = 0
        var iterator = actions.makeAsyncIterator()
        while let first = await iterator.next() {
            var next: ActionLine? = first
            while let line = next {
                if actions.droppedCount > reported {
                    // What was gathered before the loss goes first, in order.
                    guard deliver(batch: &batch, lines: &lines, lost: lost) else { return }
                    guard options.overflow == .dropOldest else {
                        drop("more than \(bufferActions) actions were waiting for this watcher")
                        return
                    }
                    lost.add(actions.droppedCount - reported)
                    reported = actions.droppedCount
                }
                ControlReply.action(line, into: &batch)
                lines += 1
                next = nil
                if iterator.takenCount > 0, batch.count < batchBytes { next = await iterator.next() }
            }
            guard deliver(batch: &batch, lines: &lines, lost: lost) else { return }
        }
    }

    /// Queues a batch of whole action lines with one append, and empties it; when it does not
    /// fit at once, or a loss must be reported first, line by line as ``deliver(_:lost:)``
    /// does. `false` once the watcher is dropped or the connection closed.
    private func deliver(batch: inout [UInt8], lines: inout Int, lost: LossCounter) -> Bool {
        defer {
            batch.removeAll(keepingCapacity: true)
            lines = 0
        }
        guard lines > 1 else { return lines == 0 || deliver(batch, lost: lost) }
        if options.overflow != .dropOldest || !lost.hasLines {
            switch outbox.append(batch) {
            case .queued:
                wake()
                return true
            case .closed:
                return false
            case .overCapacity:
                break
            }
        }
        var start = 0
        for end in batch.indices where batch[end] == UInt8(ascii: "\n") {
            guard deliver(Array(batch[start...end]), lost: lost) else { return false }
            start = end + 1
        }
        return true
    }

    private func streamState(_ states: Broadcast<JSON>.Subscription, path: String, lost: LossCounter) async {
        var last: JSON??
        for await state in states {
            let value = state.value(atPath: path) ?? .null
            if last == .some(value) { continue }
            last = value
            guard deliver(ControlReply.stateChange(path: path, value: value), lost: lost) else { return }
        }
    }

    /// Queues `line` after a report of what was lost before it; `false` once the watcher is
    /// dropped or the connection closed.
    private func deliver(_ line: [UInt8], lost: LossCounter) -> Bool {
        if options.overflow == .dropOldest, let count = lost.take() {
            switch outbox.append(ControlReply.line(["dropped": .integer(Int64(count)), "ok": true])) {
            case .queued: break
            case .overCapacity:
                lost.add(count + 1)
                return true
            case .closed: return false
            }
        }
        switch outbox.append(line) {
        case .queued:
            wake()
            return true
        case .overCapacity:
            guard options.overflow == .dropOldest else {
                drop("more than \(limits.watcherBufferBytes) bytes were waiting for this watcher to read")
                return false
            }
            lost.add(1)
            return true
        case .closed:
            return false
        }
    }

    private func drop(_ reason: String) {
        if outbox.drop(reason: reason, line: ControlReply.error(.tooSlow(reason))) { wake() }
    }
}
