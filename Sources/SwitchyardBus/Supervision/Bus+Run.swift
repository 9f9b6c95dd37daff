import SwitchyardStreams

extension Bus {
    /// The task group of a running bus: the rate sampler, the conductor (start-up, waiting for
    /// stop, shutting down) and one child per plugin runner, read from ``children`` as they
    /// start, so a reload adds its runners to the same group. The group ends once the
    /// conductor has stopped every runner (or abandoned one that ignored cancellation).
    func superviseGroup() async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { [core, rate] in await Bus.sampleRate(of: core, into: rate) }
            group.addTask { try await self.conduct() }
            while let start = await children.next() {
                group.addTask { await start.runner.run(firstActions: start.actions) }
            }
            // Every runner has ended or was abandoned: this ends the rate sampler.
            group.cancelAll()
            try await group.waitForAll()
        }
    }

    private func conduct() async throws {
        defer { children.finish() }
        let runners = self.runners
        // Every subscription exists before the first plugin starts, so no plugin misses an
        // action another plugin emits while starting.
        let firstActions = runners.map { runner in
            runner.plugin.subscription.map { core.subscribe($0, owner: runner.name) }
        }
        var startupError: BusError?
        for (runner, actions) in zip(runners, firstActions) {
            guard !shouldStop else { break }
            runner.start(in: children, actions: actions)
            if case .signalled(let timeout) = runner.plugin.readiness {
                guard await runner.waitUntilReady(timeout: timeout, unless: stopRequested) else {
                    if !shouldStop { startupError = .pluginNotReady(runner.name, timeout: timeout) }
                    break
                }
            }
        }
        if startupError == nil, !shouldStop {
            // Every child has begun: a plugin's status never reads `pending` once the bus is ready.
            for runner in runners { await runner.waitUntilSupervised() }
            phase = .running
            let name = configuration.bus.name
            await core.emit("bus/started", payload: [
                "name": .string(name),
                "plugins": .array(runners.map { .string($0.name) }),
            ])
            core.log.write(.info, "ready: bus \"\(name)\" with \(runners.count) plugin\(runners.count == 1 ? "" : "s")"
                + (runners.isEmpty ? "" : " (\(runners.map(\.name).joined(separator: ", ")))")
                + started.compactMap(\.reachedAt).map { "; " + $0 }.joined())
            readiness.send(true)
            checkOlderJournal()
            for await stop in stopRequested.subscribe() where stop { break }
        }
        await shutDown()
        if let startupError { throw startupError }
        if let failure = directory?.journal?.writer.failure { throw BusError.journalFailed(failure) }
    }

    private var shouldStop: Bool { Task.isCancelled || stopRequested.value }

    private func shutDown() async {
        phase = .stopping
        readiness.finish()
        for await busy in reloading.subscribe() where !busy { break }
        let settings = configuration.bus
        await core.emit("bus/stopping", payload: ["name": .string(settings.name)])
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: settings.stopTimeout)
        // In reverse start order: file order, then the plugins reloads started.
        for runner in children.started.reversed() {
            await runner.stop(timeout: max(.zero, clock.now.duration(to: deadline)))
        }
        core.store.close()
        // The router ends only once the closed store has reduced the last queued action (a
        // stopping plugin's exit report, say), so watchers and `actions(matching:)` see every
        // action the bus took, and the journal holds them all before it closes.
        await Bus.waitUntilDrained(core.store, timeout: max(.milliseconds(100), clock.now.duration(to: deadline)), log: core.log)
        core.router.finish()
        await stopServices(grace: min(.seconds(1), max(.milliseconds(100), clock.now.duration(to: deadline))))
        phase = .finished
    }

    /// Waits until the closed `store` has reduced every queued action, or `timeout`; when the
    /// time runs out first, says on `log` how many actions the journal will not hold.
    static func waitUntilDrained(_ store: Store<JSON, BusAction>, timeout: Duration, log: LogSink) async {
        let drained = await withTaskGroup(of: Bool.self) { group in
            group.addTask { for await _ in store.states {}; return true }
            group.addTask { try? await Task.sleep(for: timeout); return false }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
        let queued = store.statistics.queued
        if !drained, queued > 0 {
            log.write(.error, "stopping: \(queued) queued actions were not reduced within \(timeout); neither the journal nor any watcher holds them")
        }
    }

    private static func sampleRate(of core: PluginHost, into rate: ActionRateMeter) async {
        // A rate is actions per real second; on the plugins' clock a manual clock in a test
        // would count this sampler among the sleepers the test waits for.
        await sampleRate(of: core, into: rate, clock: ContinuousClock())
    }

    private static func sampleRate<C: Clock>(of core: PluginHost, into rate: ActionRateMeter, clock: C) async where C.Duration == Duration {
        let origin = clock.now
        while !Task.isCancelled {
            let reduced = core.store.statistics.reduced
            let elapsed = origin.duration(to: clock.now)
            rate.record(reduced, at: elapsed)
            do {
                try await clock.sleep(for: .seconds(1))
            } catch {
                return
            }
        }
    }
}
