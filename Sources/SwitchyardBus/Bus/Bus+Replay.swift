extension Bus {
    /// Dispatches a recorded action as it was recorded: its type, payload, source, time and
    /// `cause` are kept (a `cause` should name an action of this bus: ``ReplayFeed`` maps
    /// recorded ids to replayed ones); only the id is new. Returns that id once the action is
    /// reduced (and journaled), `nil` when the bus did not take it.
    ///
    /// Reducers see the action as they saw it when it was recorded; a bus that runs its
    /// plugins lets them react to it, and their actions are stamped with the time of now.
    @discardableResult
    public nonisolated func dispatchRecorded(_ action: BusAction) async -> UInt64? {
        var recorded = action
        recorded.id = 0
        recorded.keepsTime = true
        return await dispatchReturningID(recorded)
    }

    /// Starts the services (the control socket, say) of a bus that is not run (a step-by-step
    /// replay with effects off, whose `step` requests come over it); ``closeWithoutRunning()``
    /// stops them. Does nothing for a bus without a data directory or one that ran.
    /// - Throws: what a service's ``BusService/start(on:)`` throws, such as
    ///   ``BusError/controlSocket(_:reason:)`` when the socket cannot be opened (the services
    ///   started before it run until ``closeWithoutRunning()``).
    public func serveControlWithoutRunning() throws(BusError) {
        guard phase == .idle, directory != nil, started.isEmpty else { return }
        try startServices()
    }

    /// Ends a bus that was built but never run (a replay with effects off, where no plugin
    /// starts): waits for the actions already taken, closes the journal (with a final
    /// snapshot) and releases the data directory. Does nothing for a bus that ran.
    public func closeWithoutRunning() async {
        guard phase == .idle else { return }
        phase = .finished
        core.store.close()
        // Every dispatchRecorded returned after its action was reduced and journaled; this
        // waits for any other action sent without waiting, before the watchers' streams end.
        await Bus.waitUntilDrained(core.store, timeout: .seconds(5), log: core.log)
        core.router.finish()
        // A step-by-step replay's control socket gets a moment to send the last step's reply.
        await stopServices(grace: .seconds(1))
    }
}
