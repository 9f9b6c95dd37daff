import SwitchyardStreams

/// The store's one reducing task: batches are reduced, made durable and published in order.
extension Store {
    @inlinable
    func drain<Sink: BatchSink<State, Action>>(into sink: Sink) async {
        var spare: [StoreInbox<Action>.Entry] = []
        // With a sink that commits, the store reduces the next batch while the one before is
        // being made durable, and publishes that one when its commit is done: at most two
        // batches are under way, and they are published in order.
        var inFlight: ReducedBatch<State, Action, Sink.Written>?
        while true {
            if var entries = inbox.takeBatch(spare: &spare) {
                sink.stamp(&entries)
                let reduced = reduce(entries, committingTo: sink)
                if let previous = inFlight {
                    inFlight = nil
                    spare = await publish(previous, to: sink)
                }
                if reduced.commit == nil {
                    spare = await publish(reduced, to: sink)
                } else {
                    inFlight = reduced
                }
            } else if let previous = inFlight {
                inFlight = nil
                spare = await publish(previous, to: sink)
            } else {
                return
            }
        }
    }

    /// Reduces a batch, runs its effects, and hands it to the sink's commit.
    @inlinable
    func reduce<Sink: BatchSink<State, Action>>(
        _ entries: [StoreInbox<Action>.Entry], committingTo sink: Sink
    ) -> ReducedBatch<State, Action, Sink.Written> {
        var actions: [Action] = []
        actions.reserveCapacity(entries.count)
        // One access to `state` for the whole batch: `reducer(&state, …)` per action made the
        // runtime check exclusive access to the actor's property twice per action (a thread-
        // local lookup each), about a fifth of the CPU `store.dispatch` spent.
        reduce(entries, state: &state, into: &actions)
        counters.countReduced(actions.count)
        var batch = ReducedBatch<State, Action, Sink.Written>(entries: entries, actions: actions, state: state)
        guard !actions.isEmpty, let commit = sink.commit(batch) else { return batch }
        // The committer's thread publishes the state and answers the senders the moment the
        // batch is durable: waiting for this task to be scheduled again first cost every
        // answer a hop through the pool. Batches resolve in order, so states go out in order.
        commit.whenDurable { [stateValue, batch] in
            stateValue.send(batch.state)
            batch.answerPublished()
        }
        batch.commit = commit
        return batch
    }

    /// Publishes a reduced batch once it is durable and tells its senders; returns its entries'
    /// buffer for reuse.
    @inlinable
    func publish<Sink: BatchSink<State, Action>>(
        _ batch: ReducedBatch<State, Action, Sink.Written>, to sink: Sink
    ) async -> [StoreInbox<Action>.Entry] {
        if let commit = batch.commit {
            // Durable, its state was published and its senders told as it resolved. A batch
            // that could not be made durable is never published: nobody sees an action that is
            // not on disk. Its senders are told why.
            if let failure = await commit.wait() {
                batch.answerFailed(failure)
                return batch.entries
            }
        } else {
            stateValue.send(batch.state)
            batch.answerPublished()
        }
        await sink.deliver(batch)
        await fanout.deliver(batch.actions)
        batch.answerDelivered()
        return batch.entries
    }

    @inlinable
    func reduce(_ entries: [StoreInbox<Action>.Entry], state: inout State, into actions: inout [Action]) {
        // By index, as ``ReducedBatch`` reads them.
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
