import SwitchyardStreams

/// What a running plugin sees of the bus: its actions, the state, a way to emit actions, a
/// clock and a log.
///
/// Actions a plugin emits get its name as their `source`. A context is cheap to copy and safe
/// to use from any task the plugin starts.
public struct PluginContext: Sendable {
    /// The plugin's name from the config file; emitted action types usually start with it.
    public let name: String
    /// The actions matching the plugin's ``Plugin/subscription``, registered before any plugin
    /// started; empty when the plugin has no subscription.
    public let actions: PluginActions
    /// The clock the bus runs on; tests drive it by hand.
    public let clock: any Clock<Duration>
    /// Lines on the bus log (stderr), prefixed with the plugin's name.
    public let log: PluginLog

    let core: PluginHost
    let readinessSignal: @Sendable () -> Void

    init(name: String, actions: PluginActions, core: PluginHost, readinessSignal: @escaping @Sendable () -> Void) {
        self.name = name
        self.actions = actions
        self.clock = core.clock
        self.log = PluginLog(name: name, sink: core.log)
        self.core = core
        self.readinessSignal = readinessSignal
    }

    /// The bus's name from the config file (`bus.name`, default `switchyard`), for plugins that
    /// must tell this bus from others, such as a bridge between machines.
    public var busName: String { core.busName }

    /// The bus's journal, for plugins that read what the bus recorded; `nil` when the bus keeps
    /// no journal (no data directory, or `BusServices(journal: false)`).
    public var journal: PluginJournal? { core.journal }

    /// The credentials of the bus's configuration (see ``Secrets``): redact them from what the
    /// plugin writes about its configuration — a status or failure action that quotes a URL,
    /// endpoint or command — never from a payload that came from outside.
    public var secrets: Secrets { core.log.secrets }

    /// The whole bus state as of the last reduced action.
    public var state: JSON { core.store.currentState }

    /// This plugin's slice, `state.NAME`; `null` when it keeps none.
    public var slice: JSON { core.store.currentState[name] ?? .null }

    /// Subscribes to more actions, live from this call on (nothing earlier is replayed).
    public func subscribe(_ subscription: ActionSubscription) -> PluginActions {
        core.subscribe(subscription, owner: name)
    }

    /// Stops handing this plugin's subscriptions the actions whose `source` `ignored` accepts,
    /// for a plugin that drops such actions unread (a bridge, and the actions relayed from
    /// where it publishes): the bus skips them instead of buffering each one for the plugin
    /// to drop. They still count in the plugin's `received` statistic, as before. Applies to
    /// the subscriptions the plugin has when it calls this and to those it makes later, a
    /// restart's included, until the bus stops the plugin.
    package func ignoreActions(fromSources ignored: @escaping @Sendable (String) -> Bool) {
        core.router.ignore(sources: ignored, owner: name)
    }

    /// Enqueues an action without waiting; `false` when the bus inbox is full or `type` is not
    /// a valid `domain/event` type (the log says which).
    @discardableResult
    public func send(_ type: String, payload: JSON = .null, cause: UInt64? = nil) -> Bool {
        send(type, payload: payload, cause: cause, relayedFrom: name)
    }

    /// Enqueues an action, waiting for room in the inbox, and returns once it has been reduced;
    /// returns at once, without the action, when `type` is invalid or the task is cancelled
    /// while waiting for room.
    public func dispatch(_ type: String, payload: JSON = .null, cause: UInt64? = nil) async {
        await dispatch(type, payload: payload, cause: cause, relayedFrom: name)
    }

    /// Like ``send(_:payload:cause:)`` for an action this plugin relays from elsewhere: its
    /// source is `source` (such as `nats:tracker`) instead of the plugin's name.
    @discardableResult
    public func send(_ type: String, payload: JSON = .null, cause: UInt64? = nil, relayedFrom source: String) -> Bool {
        guard let action = makeAction(type, payload: payload, cause: cause, source: source) else { return false }
        return core.store.send(action)
    }

    /// Like ``dispatch(_:payload:cause:)`` for an action this plugin relays from elsewhere: its
    /// source is `source` (such as `nats:tracker`) instead of the plugin's name.
    public func dispatch(_ type: String, payload: JSON = .null, cause: UInt64? = nil, relayedFrom source: String) async {
        guard let action = makeAction(type, payload: payload, cause: cause, source: source) else { return }
        await dispatch(relayed: action)
    }

    /// Enqueues a run of actions this plugin relays from elsewhere (each with its own
    /// `source`), without waiting, under one lock of the inbox and with one wake-up of the
    /// store: for a bridge that receives many actions in one network read. Takes them from
    /// the first, as many as there is room for, and returns how many it took; the caller
    /// sends the rest with ``dispatch(relayed:)``, in order. Every type must already be a
    /// valid action type (the caller checked it once, when it mapped the type).
    package func send(relayed actions: ArraySlice<BusAction>) -> Int {
        core.store.send(contentsOf: actions)
    }

    /// Enqueues one relayed action whose type is already checked, waiting for room, and
    /// returns once it has been reduced; returns without it when the task is cancelled while
    /// waiting for room.
    package func dispatch(relayed action: BusAction) async {
        await core.store.dispatch(action)
    }

    /// Reports the plugin ready, for plugins whose ``Plugin/readiness`` is
    /// ``PluginReadiness/signalled(timeout:)``; later calls do nothing.
    public func ready() {
        readinessSignal()
    }

    /// Sleeps on the bus clock; throws `CancellationError` when the task is cancelled.
    public func sleep(for duration: Duration) async throws {
        try await clock.sleep(for: duration)
    }

    /// The action to emit; `nil`, logged, when `type` is not a valid action type. The one
    /// check every public emitting call makes before the unchecked relayed path.
    private func makeAction(_ type: String, payload: JSON, cause: UInt64?, source: String) -> BusAction? {
        guard ActionType.isValid(type) else {
            log.error("not emitted: \"\(type)\" is not a valid action type (lower-case domain/event)")
            return nil
        }
        return BusAction(type: type, payload: payload, source: source, cause: cause)
    }
}
