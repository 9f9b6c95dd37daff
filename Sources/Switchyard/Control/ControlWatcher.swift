import SwitchyardStreams

/// Streams a watching connection's actions and state into its outbox.
///
/// The subscriptions are made before the `ok` reply goes out, so a client sees every action
/// reduced after it read that reply. A watcher never holds up the bus: its action buffer drops
/// what does not fit, and as soon as anything was dropped, or its outbox is full because the
/// client does not read, it is dropped with a `too-slow` error instead of losing actions
/// silently.
struct ControlWatcher: Sendable {
    let actions: PluginActions?
    let states: Broadcast<JSON>.Subscription?
    let statePath: String?
    let outbox: ControlOutbox
    let limits: ControlLimits
    let wake: @Sendable () -> Void

    /// Runs until the bus stops (the outbox is then finished), the watcher is dropped, or the
    /// task is cancelled (the connection closed).
    func run() async {
        await withTaskGroup(of: Void.self) { group in
            if let actions { group.addTask { await streamActions(actions) } }
            if let states, let statePath { group.addTask { await streamState(states, path: statePath) } }
            // The first stream to end decides: the bus stopped, or the watcher was dropped.
            _ = await group.next()
            group.cancelAll()
        }
        outbox.finish()
        wake()
    }

    private func streamActions(_ actions: PluginActions) async {
        var line: [UInt8] = []
        for await action in actions {
            if actions.droppedCount > 0 {
                drop("more than \(limits.watcherBufferActions) actions were waiting for this watcher")
                return
            }
            line.removeAll(keepingCapacity: true)
            ControlReply.action(action, into: &line)
            guard deliver(line) else { return }
        }
    }

    private func streamState(_ states: Broadcast<JSON>.Subscription, path: String) async {
        var last: JSON??
        for await state in states {
            let value = state.value(atPath: path) ?? .null
            if last == .some(value) { continue }
            last = value
            guard deliver(ControlReply.stateChange(path: path, value: value)) else { return }
        }
    }

    private func deliver(_ line: [UInt8]) -> Bool {
        switch outbox.append(line) {
        case .queued:
            wake()
            return true
        case .overCapacity:
            drop("more than \(limits.watcherBufferBytes) bytes were waiting for this watcher to read")
            return false
        case .closed:
            return false
        }
    }

    private func drop(_ reason: String) {
        if outbox.drop(reason: reason, line: ControlReply.error(.tooSlow(reason))) { wake() }
    }
}
