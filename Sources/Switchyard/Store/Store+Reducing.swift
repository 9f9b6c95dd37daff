import SwitchyardStreams

/// The store's one reducing task: batches are reduced, made durable and published in order.
extension Store {
    /// A reduced batch on its way out: its entries (for their completions), its actions, the
    /// state after it, and whether it is durable yet.
    @usableFromInline
    struct ReducedBatch: Sendable {
        @usableFromInline var entries: [StoreInbox<Action>.Entry]
        @usableFromInline var actions: [Action]
        @usableFromInline var state: State
        @usableFromInline var commit: BatchCommit?

        @inlinable
        init(entries: [StoreInbox<Action>.Entry], actions: [Action], state: State, commit: BatchCommit?) {
            self.entries = entries
            self.actions = actions
            self.state = state
            self.commit = commit
        }
    }

    @inlinable
    func drain() async {
        var spare: [StoreInbox<Action>.Entry] = []
        // With a commit hook the store reduces the next batch while the one before is being
        // made durable, and publishes that one when its commit is done: at most two batches
        // are under way, and they are published in order.
        var inFlight: ReducedBatch?
        while true {
            if var entries = inbox.takeBatch(spare: &spare) {
                stamp?(&entries)
                let reduced = reduce(entries)
                if let previous = inFlight {
                    inFlight = nil
                    spare = await publish(previous)
                }
                if reduced.commit == nil {
                    spare = await publish(reduced)
                } else {
                    inFlight = reduced
                }
            } else if let previous = inFlight {
                inFlight = nil
                spare = await publish(previous)
            } else {
                return
            }
        }
    }

    /// Reduces a batch, runs its effects, and hands it to the commit hook.
    @inlinable
    func reduce(_ entries: [StoreInbox<Action>.Entry]) -> ReducedBatch {
        var actions: [Action] = []
        actions.reserveCapacity(entries.count)
        // One access to `state` for the whole batch: `reducer(&state, …)` per action made the
        // runtime check exclusive access to the actor's property twice per action (a thread-
        // local lookup each), about a fifth of the CPU `store.dispatch` spent.
        reduce(entries, state: &state, into: &actions)
        counters.countReduced(actions.count)
        let commit = actions.isEmpty ? nil : self.commit?(actions)
        if let commit {
            // The committer's thread publishes the state and answers the senders the moment the
            // batch is durable: waiting for this task to be scheduled again first cost every
            // answer a hop through the pool. Batches resolve in order, so states go out in order.
            let published = state
            commit.whenDurable { [stateValue] in
                stateValue.send(published)
                for index in entries.indices { entries[index].completion?.published(sequence: entries[index].sequence) }
            }
        }
        return ReducedBatch(entries: entries, actions: actions, state: state, commit: commit)
    }

    /// Publishes a reduced batch once it is durable and tells its senders; returns its entries'
    /// buffer for reuse.
    @inlinable
    func publish(_ batch: ReducedBatch) async -> [StoreInbox<Action>.Entry] {
        // A batch that could not be made durable is never published: nobody sees an action
        // that is not on disk. Its senders are told why.
        // The entries are read in place, by index: a `for … in` copied each one (retaining its
        // action's strings and payload and its completion) only to read it.
        let entries = batch.entries
        if let commit = batch.commit {
            // Durable, its state was published and its senders told as it resolved.
            if let failure = await commit.wait() {
                for index in entries.indices { entries[index].completion?.failed(failure) }
                return entries
            }
        } else {
            stateValue.send(batch.state)
            for index in entries.indices { entries[index].completion?.published(sequence: entries[index].sequence) }
        }
        if let beforeDelivery { await beforeDelivery(batch.actions, batch.state, batch.commit?.written) }
        await fanout.deliver(batch.actions)
        for index in entries.indices { entries[index].completion?.delivered() }
        return entries
    }

    @inlinable
    func reduce(_ entries: [StoreInbox<Action>.Entry], state: inout State, into actions: inout [Action]) {
        // By index, as ``publish(_:)`` reads them.
        for index in entries.indices {
            // An action a cancelled effect emitted: the cancellation came first, so it
            // must not land (a stale result after the search that replaced it).
            if let token = entries[index].token, token.isCancelled {
                counters.countEffectOutputDiscarded()
                continue
            }
            reducer(&state, entries[index].action)
            actions.append(entries[index].action)
            if hasMiddleware { runEffects(for: entries[index].action, state: state) }
        }
    }

    /// Hands the action just reduced to every middleware, with the state after it; their
    /// cancellations take effect before the next action is reduced.
    @usableFromInline
    func runEffects(for action: Action, state: State) {
        for (middleware, runner) in zip(middleware, runners) {
            runner.apply(middleware.effects(state, action))
        }
    }

    @usableFromInline
    func finishStreams() {
        for runner in runners { runner.close() }
        fanout.finish()
        stateValue.finish()
    }
}
