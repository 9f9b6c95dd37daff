extension Bus {
    /// Starts the journal's flushing and the services a bus with a data directory runs, in
    /// order, remembering each one started so ``stopServices(grace:)`` stops exactly those.
    /// - Throws: the first service's ``BusError``; the services started before it keep running
    ///   until ``stopServices(grace:)``.
    func startServices() throws(BusError) {
        guard let directory else { return }
        directory.start(clock: core.clock)
        for service in serving {
            let reachedAt = try service.start(on: self)
            started.append((service, reachedAt))
        }
    }

    /// Closes the journal (with a final snapshot of the current state), stops the started
    /// services in reverse order, each letting its clients flush for up to `grace`, then
    /// releases the data directory. A client still connected sees the last action journaled.
    func stopServices(grace: Duration) async {
        guard let directory else { return }
        await directory.closeJournal(finalState: core.store.currentState)
        for service in started.reversed().map(\.service) {
            await service.stop(grace: grace)
        }
        started = []
        directory.release()
    }

    /// The data directory's path while the bus holds it; `nil` for a bus that keeps nothing
    /// on disk.
    package nonisolated var dataDirectory: String? { directory?.dataDirectory }

    /// Whether the bus journals what it reduces.
    package nonisolated var journals: Bool { directory?.journal != nil }
}
