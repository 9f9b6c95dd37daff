/// The state half of a bus without the bus: a configuration's initial state and its reducer
/// (the state slices of its plugins), for reducing recorded actions where no plugin may run,
/// as `journal diff` does.
public struct BusStateModel: Sendable {
    /// The state before any action: every slice at its initial value.
    public let initialState: JSON
    /// Reduces one action into the state, exactly as a bus built from the same configuration does.
    public let reduce: @Sendable (inout JSON, BusAction) -> Void

    /// The model of the bus `configuration` describes. Only the plugins' slices are made
    /// (``PluginRegistry/makeSlice(_:)``), so a configuration read with
    /// ``BusConfiguration/loadForSlices(contentsOf:environment:registry:)`` serves; no plugin runs.
    /// - Throws: ``ConfigurationError`` with every problem making a slice.
    public init(configuration: BusConfiguration, registry: PluginRegistry) throws(ConfigurationError) {
        let made = try Bus.makeEach(configuration, registry.makeSlice, problems: registry.sliceProblems(in:))
        let slices = SliceTable(Bus.slices(of: configuration.plugins, made, secrets: configuration.secrets))
        initialState = BusStateReducer.initialState(slices.current)
        reduce = BusStateReducer.reducer(slices)
    }
}
