/// Where the bus's store sends each reduced batch: ids and times stamped on its actions, the
/// journal's commit, then the bus's counters, a snapshot when one is due, and the router that
/// hands the batch to plugins, watchers and event streams — in that order, on the store's
/// reducing task (see ``BatchSink``).
struct BusBatchSink: BatchSink {
    /// The journal of a bus that keeps a data directory; `nil` publishes every batch at once.
    let journal: Journal?
    let router: ActionRouter
    let counters: BusCounters

    /// Gives each action its sequence number as id and the batch's time. Payloads pass
    /// untouched: the journal keeps what was sent and emitted byte for byte (secrets are kept
    /// out of what the bus writes about its configuration, never out of an action).
    func stamp(_ entries: inout [StoreInbox<BusAction>.Entry]) {
        // The clock is read once a batch: each read took a lock.
        let now = BusClock.now()
        for index in entries.indices {
            // A replayed action keeps its recorded time, so reducers see what they saw.
            entries[index].action.stamp(id: entries[index].sequence, now: now)
        }
    }

    /// Hands the batch to the journal's writer thread; `nil` without a journal.
    func commit(_ batch: ReducedBatch<JSON, BusAction, EncodedRun>) -> BatchCommit<EncodedRun>? {
        journal?.commit(batch.actions)
    }

    /// Counts the batch, writes a snapshot when one is due, and routes it.
    func deliver(_ batch: ReducedBatch<JSON, BusAction, EncodedRun>) async {
        counters.count(batch.actions)
        if let last = batch.actions.last { journal?.snapshotIfDue(through: last.id) { batch.state } }
        // The journal's writer wrote each action's object once, for its line; they come with
        // the batch and serve every watcher's line.
        await router.route(batch.actions, objects: batch.written)
    }
}
