/// One batch the store reduced, on its way out: from the reducer to the ``BatchSink``'s commit,
/// to the published state and its senders' answers, to the sink's delivery and the store's
/// `actions` subscribers. Everything the later hops need travels in it, so none of them looks
/// anything up by id. `Written` is what its commit hands on once durable (see ``BatchCommit``).
@usableFromInline
package struct ReducedBatch<State: Sendable, Action: Sendable, Written: Sendable>: Sendable {
    /// The inbox entries taken for the batch, with their sequence numbers and completions; an
    /// action a cancelled effect emitted is among them, though it was not reduced.
    @usableFromInline package var entries: [StoreInbox<Action>.Entry]
    /// The actions reduced, in order.
    @usableFromInline package var actions: [Action]
    /// The state after the last of them.
    @usableFromInline package var state: State
    /// Whether the batch is durable yet; `nil` when nothing makes it durable (a sink that does
    /// not commit, such as ``NoBatchSink`` or a bus without a journal, or no action reduced):
    /// then it is published at once.
    @usableFromInline package var commit: BatchCommit<Written>?

    @inlinable
    package init(entries: [StoreInbox<Action>.Entry], actions: [Action], state: State, commit: BatchCommit<Written>? = nil) {
        self.entries = entries
        self.actions = actions
        self.state = state
        self.commit = commit
    }

    /// What the commit's resolver wrote for the batch (the journal's encoded lines), once it is
    /// durable; `nil` before, after a failure, or without a commit.
    @inlinable
    package var written: Written? { commit?.written }

    // The entries are read in place, by index: a `for … in` copied each one (retaining its
    // action's strings and payload and its completion) only to read it.

    /// Tells every sender that does not wait its action's sequence number: the batch is durable
    /// and its state published.
    @inlinable
    package func answerPublished() {
        for index in entries.indices { entries[index].completion?.published(sequence: entries[index].sequence) }
    }

    /// Tells every sender the batch could not be made durable, for `reason`.
    @inlinable
    package func answerFailed(_ reason: String) {
        for index in entries.indices { entries[index].completion?.failed(reason) }
    }

    /// Resumes every ``Store/dispatch(_:)`` caller of the batch: subscribers got it.
    @inlinable
    package func answerDelivered() {
        for index in entries.indices { entries[index].completion?.delivered() }
    }
}
