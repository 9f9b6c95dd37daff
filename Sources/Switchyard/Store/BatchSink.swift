/// Where a store's reduced batches go beyond the store: what makes them durable (a journal) and
/// what must see them before the store's own `actions` subscribers (the bus's router). A store's
/// reducing task is given one sink when it starts (``Store/startDrainer(into:preferring:)``) and
/// keeps it for the store's life; the loop is specialized for the sink's concrete type.
///
/// The store calls it only from its one reducing task, one batch at a time, in this order:
/// 1. ``stamp(_:)`` with the entries just taken from the inbox, before they are reduced;
/// 2. ``commit(_:)`` with the reduced batch, when it reduced at least one action. The store
///    goes on reducing the next batch meanwhile (at most two batches are under way) and
///    publishes batches in order. When the commit resolves durable, the resolving thread
///    publishes the batch's state and answers its senders that do not wait, before the
///    store's task runs again. A batch whose commit fails is never published: its senders are
///    answered ``DispatchOutcome/journalFailed(_:)`` and the sink never sees it again;
/// 3. ``deliver(_:)`` once the batch is durable and its state published, before the store's
///    `actions` subscribers get it and its ``Store/dispatch(_:)`` callers return.
@usableFromInline
package protocol BatchSink<State, Action>: Sendable {
    /// The store's state.
    associatedtype State: Sendable
    /// The store's action.
    associatedtype Action: Sendable
    /// What a durable batch's commit hands on to ``deliver(_:)`` (the bus's journal: the JSON
    /// objects it wrote); `Never` for a sink that hands nothing on.
    associatedtype Written: Sendable

    /// Prepares a batch's entries before they are reduced, each with the sequence number it got
    /// under the inbox's lock (sequence order is reduction order); once per batch rather than per
    /// action. Default: the actions stay as sent.
    func stamp(_ entries: inout [StoreInbox<Action>.Entry])

    /// Starts making a reduced batch durable and returns what resolves when it is (or why it is
    /// not); `nil` publishes the batch at once. Must not wait: the store reduces the next batch
    /// while this one is written.
    func commit(_ batch: ReducedBatch<State, Action, Written>) -> BatchCommit<Written>?

    /// Sees a durable, published batch (with ``ReducedBatch/written``) before the store's
    /// `actions` subscribers do; the store waits for it, so waiting here holds the store up.
    func deliver(_ batch: ReducedBatch<State, Action, Written>) async
}

extension BatchSink {
    /// Leaves the actions as they were sent.
    @inlinable
    package func stamp(_ entries: inout [StoreInbox<Action>.Entry]) {}
}

/// The sink of a store whose batches go nowhere beyond it (a library user's store): nothing
/// stamped, nothing to make durable (each batch is published as soon as it is reduced), nothing
/// to deliver before the store's own subscribers.
@usableFromInline
package struct NoBatchSink<State: Sendable, Action: Sendable>: BatchSink {
    @inlinable
    package init() {}

    /// `nil`: the batch is published at once.
    @inlinable
    package func commit(_ batch: ReducedBatch<State, Action, Never>) -> BatchCommit<Never>? { nil }

    /// Does nothing.
    @inlinable
    package func deliver(_ batch: ReducedBatch<State, Action, Never>) async {}
}
