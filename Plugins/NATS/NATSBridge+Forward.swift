import SwitchyardBus

/// Store-and-forward: in JetStream mode with a journal, published actions come from the
/// journal, after a durable cursor (the last id JetStream settled, in
/// `<dataDirectory>/NAME.cursor`), so no outage and no restart loses what the journal kept.
///
/// Two tasks feed the machine. The live task takes the plugin's actions as the bus hands them
/// over and publishes them at once while it can (connected, room in the window, within the
/// drain rate); otherwise it leaves them to the journal task, which reads the journal from the
/// cursor on at the drain rate until it catches up. Both publish in id order (``ForwardSource``
/// keeps them apart), and every message carries `Nats-Msg-Id: <origin>-<id>`, so JetStream
/// stores a resent action once.
extension NATSBridge {
    /// Reads the cursor (reporting a damaged or unusable one) and sets the forwarding state up.
    func startForwarding(_ journal: PluginJournal) {
        let cursor = journal.cursor(named: context.name)
        var start = journal.restoredThrough
        do {
            if let saved = try cursor.load() {
                if saved > journal.restoredThrough {
                    reporter.failure("cursor", "the cursor \(cursor.path) says \(saved) was published, but the journal ends at \(journal.restoredThrough) "
                                     + "(was the journal replaced?); publishing from the journal's oldest action", repeatable: true)
                    start = 0
                } else {
                    start = saved
                }
            } else {
                context.log.info("no cursor yet (\(cursor.path)): publishing the actions after \(start), this start's first")
            }
        } catch {
            reporter.failure("cursor", "\(error); publishing from the journal's oldest action again (JetStream drops the duplicates it still remembers)",
                             details: ["path": .string(cursor.path)], repeatable: true)
            start = 0
        }
        do {
            try cursor.store(start)
        } catch {
            reporter.failure("cursor", "\(error)", details: ["path": .string(cursor.path)], repeatable: true)
        }
        let window = settings.publishWindow
        let forwarding = Forwarding(
            progress: ForwardProgress(cursor: start, saveInterval: Self.cursorSaveInterval),
            pacer: DrainPacer(rate: settings.drainRate, now: now()),
            feedLimit: min(2 * window, max(settings.bufferSize, window)),
            earlierRunsThrough: journal.restoredThrough
        )
        shared.withLock { $0.forward = forwarding; $0.forward?.progress.didSave(start, now: now()) }
    }

    /// How often the cursor is written at most while acknowledgements arrive.
    static var cursorSaveInterval: Duration { .milliseconds(200) }

    /// Applies the machine's settled publishes to the progress; rings the journal task when
    /// it may publish more.
    func settle(_ effects: BridgeMachine.Effects, in shared: inout Shared) {
        guard !effects.settled.isEmpty || effects.becameReady, var forward = shared.forward.take() else { return }
        for id in effects.settled { forward.progress.settled(id) }
        let wake = !forward.source.isLive && (!effects.settled.isEmpty || effects.becameReady)
        shared.forward = forward
        if wake { ring.yield() }
    }

    /// Writes the cursor when it moved (at most every ``cursorSaveInterval`` unless `force`).
    func saveCursor(force: Bool) {
        guard let journal = context.journal else { return }
        let time = now()
        let due = shared.withLock { shared -> UInt64? in
            guard let progress = shared.forward?.progress else { return nil }
            return force ? (progress.confirmed > progress.saved ? progress.confirmed : nil) : progress.due(now: time)
        }
        guard let due else { return }
        do {
            try journal.cursor(named: context.name).store(due)
            shared.withLock { $0.forward?.progress.didSave(due, now: time) }
        } catch {
            reporter.failure("cursor", "\(error); a restart publishes again from \(shared.withLock { $0.forward?.progress.saved ?? 0 })",
                             details: ["path": .string(journal.cursor(named: context.name).path)], repeatable: false)
        }
    }

    /// Whether the bridge publishes `action` at all.
    private func publishes(_ action: BusAction, _ pattern: TypePattern) -> Bool {
        publishes(type: action.type, source: action.source, pattern)
    }

    private func publishes(type: String, source: String, _ pattern: TypePattern) -> Bool {
        !Self.neverPublished(source: source, plugin: context.name) && pattern.matches(type)
    }

    /// The live task: publishes the plugin's actions as they come while it can, else leaves
    /// them to the journal task. Returns when the bus stops.
    func forwardLive() async {
        guard let pattern = settings.publish else { return }
        var encoder = ForwardEncoder(origin: origin, mapping: settings.mapping)
        for await action in context.actions {
            guard publishes(action, pattern) else { continue }
            let drops = context.actions.droppedCount
            let time = now()
            let (effects, left) = shared.withLock { shared -> (BridgeMachine.Effects?, Bool) in
                // Taken out and put back, so changing it copies none of its buffers.
                guard var forward = shared.forward.take() else { return (nil, false) }
                let canPublish = forward.hasRoom(in: shared.machine) && forward.pacer.allowance(now: time) > 0
                let decision = forward.source.live(action.id, examined: forward.progress.examined, drops: drops, canPublish: canPublish)
                guard decision == .publish else {
                    shared.forward = forward
                    return (nil, decision == .leave)
                }
                forward.progress.sent(action.id)
                forward.pacer.spend(1)
                shared.forward = forward
                // Encoded only now: an action the journal hands over instead costs no encoding.
                let effects = shared.machine.submit(encoder.message(action, isResend: false), now: time)
                apply(effects, to: &shared)
                return (effects, false)
            }
            if let effects { report(effects.reports) }
            if left { ring.yield() }
        }
    }

    /// The journal task: reads the journal after the cursor and publishes what it finds, as
    /// room in the window and the drain rate allow, until it catches up with the live stream.
    func publishFromJournal(_ journal: PluginJournal) async {
        guard let pattern = settings.publish else { return }
        var follower = journal.follower(after: shared.withLock { $0.forward?.progress.examined ?? 0 })
        var encoder = ForwardEncoder(origin: origin, mapping: settings.mapping)
        var wake = doorbell.makeAsyncIterator()
        while !Task.isCancelled {
            let time = now()
            let drops = context.actions.droppedCount
            let (room, delay) = shared.withLock { shared -> (Int, Duration?) in
                guard shared.forward?.source.isLive == false, var forward = shared.forward.take() else { return (0, nil) }
                let room = forward.room(in: shared.machine)
                let allowed = forward.pacer.allowance(now: time)
                shared.forward = forward
                if room > 0, allowed == 0 { return (0, forward.pacer.delay) }
                return (min(room, allowed, 4096), nil)
            }
            if room == 0 {
                if let delay {
                    do { try await context.sleep(for: delay) } catch { return }
                } else if await wake.next() == nil {
                    return
                }
                continue
            }
            // Read as journaled: the payload goes out as the journal's text, never parsed.
            let batch: JournalFollower.Found<JournaledAction>
            do {
                follower.advance(to: shared.withLock { $0.forward?.progress.examined ?? 0 })
                batch = try follower.readJournaled(limit: room)
            } catch {
                reporter.failure("journal", "cannot read the journal to publish it: \(error); trying again in \(Self.journalRetryDelay)", repeatable: false)
                do { try await context.sleep(for: Self.journalRetryDelay) } catch { return }
                follower = journal.follower(after: shared.withLock { $0.forward?.progress.examined ?? 0 })
                continue
            }
            if let missing = batch.missing { reportRetention(missing, journal: journal) }
            let earlier = shared.withLock { $0.forward?.earlierRunsThrough ?? 0 }
            let messages = batch.actions.filter { publishes(type: $0.type, source: $0.source, pattern) }.map { encoder.message($0, isResend: $0.id <= earlier) }
            let reports = shared.withLock { shared -> [BridgeReport] in
                guard var forward = shared.forward.take() else { return [] }
                if let missing = batch.missing { forward.progress.passed(through: missing.upperBound) }
                var reports: [BridgeReport] = []
                var effects = BridgeMachine.Effects()
                for message in messages {
                    forward.progress.sent(message.actionID)
                    let submitted = shared.machine.submit(message, now: time)
                    effects.bytes += submitted.bytes
                    effects.settled += submitted.settled
                    reports += submitted.reports
                }
                forward.pacer.spend(messages.count)
                forward.progress.passed(through: follower.position)
                if batch.reachedEnd, batch.actions.count < room {
                    _ = forward.source.reachedEnd(examined: forward.progress.examined, drops: drops, dropsNow: context.actions.droppedCount)
                }
                shared.forward = forward
                apply(effects, to: &shared)
                return reports
            }
            report(reports)
            if batch.reachedEnd, batch.actions.isEmpty, batch.missing == nil, shared.withLock({ !($0.forward?.source.isLive ?? true) }) {
                // Caught up, yet the live stream is not the source (it dropped actions during
                // the read): read again once the journal grows, or when the machine rings.
                guard await waitForAppend(journal, after: follower.position, wake: &wake) else { return }
            }
        }
    }

    /// Waits until the journal holds an action after `position` or the doorbell rings;
    /// `false` when the task is cancelled or the bridge closes.
    private func waitForAppend(_ journal: PluginJournal, after position: UInt64, wake: inout AsyncStream<Void>.Iterator) async -> Bool {
        guard let appends = journal.appends else {
            // Nobody in this process tells of appends (a journal described from outside the
            // bus writing it): look again after a while.
            do { try await context.sleep(for: Self.unsignalledJournalPoll) } catch { return false }
            return true
        }
        let token = appends.notify(after: position) { [ring] in ring.yield() }
        defer { appends.cancel(token) }
        return await wake.next() != nil
    }

    /// How often the journal task looks for appends when nobody tells it of them.
    static var unsignalledJournalPoll: Duration { .milliseconds(100) }

    /// How long the journal task waits after failing to read the journal.
    static var journalRetryDelay: Duration { .seconds(1) }

    private func reportRetention(_ missing: ClosedRange<UInt64>, journal: PluginJournal) {
        let count = missing.upperBound - missing.lowerBound + 1
        reporter.failure("retention", "actions \(missing.lowerBound)-\(missing.upperBound) (\(count)) left the journal (journal compact) before JetStream acknowledged them; "
                         + "they are not published, publishing continues after them",
                         details: ["from": .integer(Int64(missing.lowerBound)), "to": .integer(Int64(missing.upperBound)), "count": .integer(Int64(count))],
                         repeatable: true)
    }
}
