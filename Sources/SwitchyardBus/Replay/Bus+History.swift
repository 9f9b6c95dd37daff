extension Bus {
    /// The past of this bus's journal, reduced with its own slices (``StateHistory``), for the
    /// doors' `state?at=`, `why` and `diff`; `nil` for a bus that keeps no journal.
    package nonisolated var history: StateHistory? {
        guard journals, let dataDirectory else { return nil }
        return StateHistory(dataDirectory: dataDirectory, model: BusStateModel(core.slices))
    }
}
