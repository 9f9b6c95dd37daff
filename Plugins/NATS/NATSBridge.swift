import FoundationEssentials
import SwitchyardBus
import Synchronization

/// One run of a `nats` plugin: the actions going out, the connection with its reconnects,
/// and the messages coming in.
///
/// Three tasks share a ``BridgeMachine`` under a lock: the forwarder submits matching local
/// actions, the connection task feeds it what the server sends and dispatches deliveries on
/// the bus, and (with JetStream) a ticker retries what timed out. Bytes the machine decides
/// to send are written while the lock is held, so they reach the server in the order they
/// were decided. When the bus stops (the action stream ends), the bridge stops pulling,
/// waits briefly for what is in flight to be acknowledged, and closes.
final class NATSBridge: Sendable {
    struct Shared: Sendable {
        var machine: BridgeMachine
        var connection: NATSConnection?
        var closeReason: String?
        var dispatching = false
        /// Publishing from the journal (JetStream with a journal); `nil` otherwise.
        var forward: Forwarding?
    }

    private struct Tally: Sendable {
        var received = 0
        var duplicates = 0
        var invalid = 0
        var lags = OriginLags()
    }

    let settings: NATSSettings
    let context: PluginContext
    /// The name this bus publishes under.
    let origin: String
    let reporter: NATSReporter
    /// The time since the bridge started, on the bus clock.
    let now: @Sendable () -> Duration
    let shared: Mutex<Shared>
    private let tally = Mutex(Tally())
    /// Wakes the journal reader: room in the window, a connection ready, a live action left.
    let doorbell: AsyncStream<Void>
    let ring: AsyncStream<Void>.Continuation

    /// How long a stopping bridge waits for publishes to be acknowledged.
    static let drainTimeout: Duration = .milliseconds(500)

    init(settings: NATSSettings, context: PluginContext, now: @escaping @Sendable () -> Duration) {
        self.settings = settings
        self.context = context
        self.origin = settings.origin ?? context.busName
        self.reporter = NATSReporter(context: context)
        self.now = now
        shared = Mutex(Shared(machine: BridgeMachine(configuration: settings.machineConfiguration(busName: context.busName))))
        (doorbell, ring) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Whether published actions come from the journal: JetStream mode, something to
    /// publish, and a bus that keeps a journal.
    var forwardsFromJournal: Bool {
        settings.mode == .jetstream && settings.publish != nil && context.journal != nil
    }

    /// Runs until the bus stops the plugin.
    func run() async {
        reporter.status("connecting", payload: ["url": .string(settings.endpoints.first?.description ?? "")])
        // What the bridge never publishes (its own actions, and those relayed from NATS by it or
        // another bridge) is not handed to it at all: on a receiving bus that is every action
        // it relays, each buffered, woken for and dropped here.
        let name = context.name
        context.ignoreActions(fromSources: { Self.neverPublished(source: $0, plugin: name) })
        let journal = forwardsFromJournal ? context.journal : nil
        if let journal { startForwarding(journal) }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.maintainConnection() }
            if settings.mode == .jetstream {
                group.addTask { await self.tickPeriodically() }
            } else if !settings.subscribe.isEmpty {
                // Core mode has no timeouts to tick, but a receiver's counters carry its origins' lag.
                group.addTask { await self.reportCountersPeriodically() }
            }
            if let journal {
                group.addTask { await self.publishFromJournal(journal) }
                await forwardLive()
            } else {
                await forwardLocalActions()
            }
            if !Task.isCancelled { await drain() }
            group.cancelAll()
        }
        if journal != nil { saveCursor(force: true) }
        let counters = self.counters
        context.log.info("stopped: \(counters["published"]?.intValue ?? 0) published, \(counters["received"]?.intValue ?? 0) received, "
            + "\(counters["dropped"]?.intValue ?? 0) dropped, \(counters["buffered"]?.intValue ?? 0) unsent")
    }

    /// The bridge's counters: `published`, `received`, `buffered`, `dropped`, `failed`, `duplicates`;
    /// once an origin's `Switchyard-Time` was read, `originLag` (``OriginLags``); once one was
    /// not a time, `badTimeHeaders`.
    var counters: JSON {
        let (published, failed, held, dropped) = shared.withLock { shared in
            (shared.machine.publishedCount, shared.machine.failedCount, shared.machine.heldCount, shared.machine.droppedCount)
        }
        let tally = self.tally.withLock { $0 }
        var counters: JSON = [
            "published": .integer(Int64(published)),
            "received": .integer(Int64(tally.received)),
            "buffered": .integer(Int64(held)),
            // Publishing from the journal, the live stream is only a shortcut: what it drops is read back.
            "dropped": .integer(Int64(dropped + (forwardsFromJournal ? 0 : context.actions.droppedCount))),
            "failed": .integer(Int64(failed + tally.invalid)),
            "duplicates": .integer(Int64(tally.duplicates)),
        ]
        if !tally.lags.lags.isEmpty { counters["originLag"] = tally.lags.json }
        if tally.lags.unreadable > 0 { counters["badTimeHeaders"] = .integer(Int64(tally.lags.unreadable)) }
        return counters
    }

    // MARK: The machine

    /// Runs `body` on the machine and writes the bytes it decided, under the lock; a close it
    /// asks for is started here too.
    @discardableResult
    func withMachine(_ body: (inout BridgeMachine) -> BridgeMachine.Effects) -> BridgeMachine.Effects {
        shared.withLock { shared in
            let effects = body(&shared.machine)
            apply(effects, to: &shared)
            return effects
        }
    }

    func apply(_ effects: BridgeMachine.Effects, to shared: inout Shared) {
        if shared.forward != nil { settle(effects, in: &shared) }
        guard let connection = shared.connection else { return }
        if !effects.bytes.isEmpty, connection.queue(effects.bytes) == true {
            shared.machine.congested()
        }
        if let reason = effects.close {
            shared.closeReason = reason
            connection.close()
        }
    }

    /// Makes `connection` the current one and tells the machine it is up.
    func attach(_ connection: NATSConnection, maxPayload: Int) -> BridgeMachine.Effects {
        shared.withLock { shared in
            shared.connection = connection
            let effects = shared.machine.connected(maxPayload: maxPayload, inbox: Self.makeInbox(), now: now())
            apply(effects, to: &shared)
            return effects
        }
    }

    /// Forgets the current connection; returns the reason the bridge closed it, if it did.
    func detach() -> String? {
        shared.withLock { shared in
            shared.connection = nil
            shared.machine.disconnected()
            defer { shared.closeReason = nil }
            return shared.closeReason
        }
    }

    /// Marks a batch of deliveries as being dispatched (or done), for the stop drain.
    func setDispatching(_ flag: Bool) {
        shared.withLock { $0.dispatching = flag }
    }

    func count(received: Int, duplicates: Int, invalid: Int, sent: [(InboundDecoder.SentTime, source: String)] = []) {
        let now = Date()
        tally.withLock { tally in
            tally.received += received
            tally.duplicates += duplicates
            tally.invalid += invalid
            for (time, source) in sent { tally.lags.record(time, from: source, now: now) }
        }
    }

    private static func makeInbox() -> String {
        let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
        return "_INBOX." + String((0..<22).map { _ in alphabet.randomElement() ?? "x" })
    }

    // MARK: Going out

    private func forwardLocalActions() async {
        guard let pattern = settings.publish else {
            for await _ in context.actions {}
            return
        }
        var encoder = ForwardEncoder(origin: origin, mapping: settings.mapping)
        var actions = context.actions.makeAsyncIterator()
        var run = OutgoingRun(holdsOperations: settings.mode == .core)
        while let action = await actions.next() {
            if !Self.neverPublished(source: action.source, plugin: context.name), pattern.matches(action.type) {
                encoder.append(action, to: &run)
            }
            // The actions the iterator already holds are encoded first, then submitted under
            // one lock and written with one wake-up of the event loop, instead of a lock, a
            // write and often a wake-up each; a long backlog still goes out in bounded runs.
            if !run.isEmpty, actions.takenCount == 0 || run.count >= Self.forwardRun { submit(&run) }
        }
        if !run.isEmpty { submit(&run) }
    }

    /// Whether an action from `source` is never published by the bridge named `plugin`: its
    /// own, or relayed from NATS (`nats:<origin>`), so that no action loops between buses.
    static func neverPublished(source: String, plugin: String) -> Bool {
        source == plugin || source.hasPrefix("nats:")
    }

    /// The most local actions submitted as one run.
    static let forwardRun = 256

    /// Submits a run of encoded actions to the machine under one lock and empties it.
    private func submit(_ run: inout OutgoingRun) {
        let time = now()
        let effects = withMachine { machine in
            var effects = BridgeMachine.Effects()
            machine.submit(run, now: time, into: &effects)
            return effects
        }
        run.removeAll()
        report(effects.reports)
    }

    /// Tells what the machine reported.
    func report(_ reports: [BridgeReport]) {
        for report in reports {
            switch report {
            case .oversized(let type, let id, let size, let maxPayload):
                reporter.failure("oversized", "\(type) (id \(id)) is \(size) bytes, more than the server's max_payload of \(maxPayload); not sent",
                                 details: ["type": .string(type), "id": .integer(Int64(id)), "size": .integer(Int64(size)),
                                           "maxPayload": .integer(Int64(maxPayload))], repeatable: true)
            case .rejected(let type, let id, let reason):
                reporter.failure("rejected", "JetStream refused \(type) (id \(id)): \(reason)",
                                 details: ["type": .string(type), "id": .integer(Int64(id))], repeatable: true)
            case .refused(let id, let reason):
                reporter.failure("refused", "JetStream refuses to store what the bridge publishes (from id \(id)): \(reason); "
                                 + "the actions are kept and published again until the stream takes them",
                                 details: ["id": .integer(Int64(id))], repeatable: true)
            case .duplicateID(let type, let id):
                // One report per episode: the message names no id, so repeats are recognised.
                reporter.failure("duplicate-id", "JetStream dropped actions whose message ids (\(origin)-ID) it already held: "
                                 + "this bus's action ids started again within the stream's duplicate window (a restart without its journal?)",
                                 details: ["type": .string(type), "id": .integer(Int64(id))], repeatable: false)
            case .overflow(let dropped):
                reporter.overflow(dropped: dropped, policy: settings.overflow, bufferSize: settings.bufferSize)
            case .warning(let message):
                context.log.warning(message)
            }
        }
    }

    // MARK: Time and stopping

    private func tickPeriodically() async {
        let interval = min(settings.requestTimeout / 2, .milliseconds(250))
        while !Task.isCancelled {
            do {
                try await context.sleep(for: interval)
            } catch {
                return
            }
            let effects = withMachine { $0.tick(now: now()) }
            report(effects.reports)
            reporter.counters(counters, now: now())
            if forwardsFromJournal { saveCursor(force: false) }
        }
    }

    /// Emits the counters when they changed, at most once a ``NATSReporter/countersInterval``.
    private func reportCountersPeriodically() async {
        while !Task.isCancelled {
            do {
                try await context.sleep(for: NATSReporter.countersInterval)
            } catch {
                return
            }
            reporter.counters(counters, now: now())
        }
    }

    /// Stops pulling and waits, at most ``drainTimeout``, until nothing is being dispatched
    /// and, while connected, nothing is waiting or unacknowledged.
    private func drain() async {
        shared.withLock { $0.machine.stop() }
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: Self.drainTimeout)
        while clock.now < deadline {
            let settled = shared.withLock { shared in
                !shared.dispatching && (shared.machine.heldCount == 0 || !shared.machine.isReady)
            }
            if settled { return }
            do {
                try await Task.sleep(for: .milliseconds(5))
            } catch {
                return
            }
        }
    }
}
