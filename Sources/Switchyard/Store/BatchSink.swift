/// Where a store's reduced batches go beyond the store: what makes them durable (a journal) and
/// what must see them before the store's own `actions` subscribers (the bus's router). A store is
/// given one sink when it is made and keeps it for its life.
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

    /// Prepares a batch's entries before they are reduced, each with the sequence number it got
    /// under the inbox's lock (sequence order is reduction order); once per batch rather than per
    /// action. Default: the actions stay as sent.
    func stamp(_ entries: inout [StoreInbox<Action>.Entry])

    /// Starts making a reduced batch durable and returns what resolves when it is (or why it is
    /// not); `nil` publishes the batch at once. Must not wait: the store reduces the next batch
    /// while this one is written.
    func commit(_ batch: ReducedBatch<State, Action>) -> BatchCommit?

    /// Sees a durable, published batch (with ``ReducedBatch/written``) before the store's
    /// `actions` subscribers do; the store waits for it, so waiting here holds the store up.
    func deliver(_ batch: ReducedBatch<State, Action>) async
}

extension BatchSink {
    /// Leaves the actions as they were sent.
    @inlinable
    package func stamp(_ entries: inout [StoreInbox<Action>.Entry]) {}
}
