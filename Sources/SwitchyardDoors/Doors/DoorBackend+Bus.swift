extension DoorBackend {
    /// The backend of every door of `bus`: its store, its routed action lines, its counters,
    /// readiness and metrics. `steps` are the go-aheads `step` requests give (a step-by-step
    /// replay); `nil` answers them `not-stepping`.
    init(bus: Bus, steps: ReplaySteps? = nil) {
        let core = bus.core
        self.init(
            dispatch: { actions, completion in
                core.store.send(contentsOf: actions, rest: .wait(report: completion)) == actions.count
            },
            dispatchTurn: { entries in core.store.send(moving: &entries) },
            state: { core.store.currentState },
            actions: { pattern, bufferSize, overflow in
                core.router.subscribeLines(ActionSubscription(pattern, bufferSize: bufferSize, overflow: overflow))
            },
            states: { core.store.states },
            statistics: { [weak bus] in core.log.secrets.redact(bus?.statistics.json ?? .null) },
            steps: steps,
            readiness: { [weak bus] in bus?.readinessReport() ?? (false, ["the bus has stopped"]) },
            metrics: { [weak bus] in bus.map { BusMetrics.exposition(of: $0.metricsSnapshot()) } ?? "" },
            nextActionID: { core.store.nextSequence },
            journalDirectory: bus.journals ? bus.dataDirectory : nil,
            history: bus.history
        )
    }
}
