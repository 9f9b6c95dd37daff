/// The state half of a bus without the bus: a configuration's initial state and its reducer
/// (the state slices of its plugins), for reducing recorded actions where no plugin may run,
/// as `journal diff` does.
public struct BusStateModel: Sendable {
    /// The state before any action: every slice at its initial value.
    public let initialState: JSON
    /// Reduces one action into the state, exactly as a bus built from the same configuration does.
    public let reduce: @Sendable (inout JSON, BusAction) -> Void
    /// Turns a snapshot's state into a starting state, as a restart does: the snapshot's slices
    /// of this model's plugins, and the initial slice of every plugin it lacks.
    public let adopt: @Sendable (JSON) -> JSON

    /// The model of the bus `configuration` describes. Only the plugins' slices are made
    /// (``PluginRegistry/makeSlice(_:)``), so a configuration read with
    /// ``BusConfiguration/loadForSlices(contentsOf:environment:registry:)`` serves; no plugin runs.
    /// - Throws: ``ConfigurationError`` with every problem making a slice.
    public init(configuration: BusConfiguration, registry: PluginRegistry) throws(ConfigurationError) {
        let made = try Bus.makeEach(configuration, registry.makeSlice, problems: registry.sliceProblems(in:))
        self.init(SliceTable(Bus.slices(of: configuration.plugins, made, secrets: configuration.secrets)))
    }

    /// The model of the slices in `table`, following its reloads.
    init(_ table: SliceTable) {
        initialState = BusStateModel.initialState(table.current)
        reduce = BusStateModel.reducer(table)
        adopt = { BusStateModel.adopt($0, slices: table.current) }
    }
}

// How the bus store is built: state is an object with one slice per plugin that keeps one, each
// handed only the actions its ``StateSlice/actions`` pattern matches.
//
// A `bus/reloaded` action from the bus removes the slices its payload lists under
// `droppedSlices` (plugins removed, or replaced by another kind); slices of plugins added by
// the reload appear with their initial value on that same action. Both happen in the
// reducer, so replaying the journal rebuilds the same state.
extension BusStateModel {
    static let reloadedType = "bus/reloaded"

    static func initialState(_ slices: [SliceTable.Entry]) -> JSON {
        .object(Dictionary(slices.map { ($0.name, $0.slice.initial) }, uniquingKeysWith: { first, _ in first }))
    }

    /// The starting state from a snapshot: the snapshot's slices of plugins the bus still
    /// has, and the initial slice of every plugin it did not know.
    static func adopt(_ snapshot: JSON, slices: [SliceTable.Entry]) -> JSON {
        var members = snapshot.objectValue ?? [:]
        let names = Set(slices.map(\.name))
        members = members.filter { names.contains($0.key) }
        for (name, slice) in slices where members[name] == nil { members[name] = slice.initial }
        return .object(members)
    }

    static func reducer(_ table: SliceTable) -> @Sendable (inout JSON, BusAction) -> Void {
        { state, action in
            let reloaded = action.type == reloadedType && action.source == "bus"
            if reloaded, let dropped = action.payload["droppedSlices"]?.arrayValue {
                for name in dropped.compactMap(\.stringValue) { state[name] = nil }
            }
            let slices = table.current
            // Only the slices that follow this action's type are looked up and handed it; on a
            // reload every slice is looked up, as that is when the slices it added appear.
            guard let first = slices.firstIndex(where: { reloaded || $0.slice.actions.matches(action.type) }),
                  case .object(var members) = state else { return }
            // Release the enum's reference so each slice is mutated in place, not copied.
            state = .null
            for index in slices[first...].indices {
                // The first was found by its match: matched again only on a reload.
                let follows = (index == first && !reloaded) || slices[index].slice.actions.matches(action.type)
                guard follows || reloaded else { continue }
                // Through the value's index: the `default:` subscript cost two allocations and
                // a copy of the initial value per slice and action, most of the reducer's time.
                if let position = members.index(forKey: slices[index].name) {
                    if follows { slices[index].slice.reduce(&members.values[position], action) }
                } else {
                    var value = slices[index].slice.initial
                    if follows { slices[index].slice.reduce(&value, action) }
                    members[slices[index].name] = value
                }
            }
            state = .object(members)
        }
    }
}
