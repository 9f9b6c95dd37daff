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
    let actions: PluginActions?
    let states: Broadcast<JSON>.Subscription?
    let statePath: String?
    let options: WatchOptions
    let outbox: ControlOutbox
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

    private func streamActions(_ actions: PluginActions, lost: LossCounter) async {
        var line: [UInt8] = []
        var reported = 0
        for await action in actions {
            if actions.droppedCount > reported {
                guard options.overflow == .dropOldest else {
                    drop("more than \(bufferActions) actions were waiting for this watcher")
                    return
                }
                lost.add(actions.droppedCount - reported)
                reported = actions.droppedCount
            }
            line.removeAll(keepingCapacity: true)
            ControlReply.action(action, into: &line)
            guard deliver(line, lost: lost) else { return }
        }
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
