import SwitchyardIO
import FoundationEssentials
import SwitchyardBus

/// The `location-emitter` plugin: turns raw positions into significant location changes and
/// an availability, the way a phone app sees its user's location.
///
/// Positions come from a gpsd plugin's fixes, a static position or a replayed NMEA/GPX file.
/// It emits `NAME/availability` (`{"availability": "unavailable" | "searching" | "available",
/// "reason": …}`) once per change, and `NAME/changed` (`latitude`, `longitude`, `altitude`,
/// `horizontalAccuracy`, `speed`, `course`, `mode`, `timestamp`, `source`) for each position
/// that passes the filters: `minMode`, `maxHorizontalError`, duplicate (time, latitude,
/// longitude), `minInterval` and `distanceFilter` (great-circle metres from the last emitted
/// point). Intervals run on the bus clock at receipt, never on the positions' own times.
/// `state.NAME` holds `availability` and the current `location`.
public struct LocationEmitterPlugin: Plugin {
    /// `location-emitter`.
    public static let kind = "location-emitter"
    /// One line for `switchyard plugins`.
    public static let summary = "Turns gpsd fixes, a static position or a replayed NMEA/GPX file into NAME/changed and NAME/availability."
    /// Every setting with its type and default, for `switchyard plugins`.
    public static let settingDescriptions: [SettingDescription] = [
        SettingDescription(
            "source", "{\"plugin\": NAME} | {\"static\": {\"latitude\", \"longitude\"}} | {\"replay\": PATH, \"speed\", \"loop\"}",
            "Where positions come from. A relative replay path is relative to the configuration file's directory; speed (default 1) "
                + "replays that many times faster; loop (default false) starts over at the end."),
        SettingDescription("minMode", "2 | 3", default: "2", "The lowest fix mode that counts: 2D or 3D."),
        SettingDescription("maxHorizontalError", "metres > 0", default: "any", "Larger estimated errors are ignored; fixes without an estimate pass."),
        SettingDescription("distanceFilter", "metres >= 0", default: "0", "Distance from the last emitted point a change must reach."),
        SettingDescription("minInterval", "seconds >= 0", default: "0", "Shortest time between two NAME/changed."),
    ]

    /// The plugin's name: the domain of its actions.
    public let name: String
    let source: LocationSource
    let filter: LocationFilter.Settings

    /// Reads and validates the settings (see ``settingDescriptions``); a replay file is read
    /// now, so a missing or unusable file is a configuration problem.
    ///
    /// - Throws: `PluginSettingsError` with every problem.
    public init(name: String, settings: PluginSettings) throws {
        self.name = name
        var source: LocationSource?
        if let sourceSettings = settings.object("source") {
            source = LocationSource.read(sourceSettings, ownName: name)
        } else if !settings.contains("source") {
            settings.problem("", "missing required key \"source\"")
        }
        var filter = LocationFilter.Settings()
        filter.minimumMode = settings.int("minMode", default: 2, range: 2...3)
        filter.maximumHorizontalError = settings.double("maxHorizontalError", range: 0.001...1e7)
        filter.distanceFilter = settings.double("distanceFilter", default: 0, range: 0...2e7)
        filter.minimumInterval = settings.seconds("minInterval", default: .zero, range: 0...86_400)
        self.filter = filter
        try settings.finish()
        guard let source else { throw PluginSettingsError(problems: settings.problems) }
        self.source = source
    }

    /// The fixes and status of the source plugin, for a `plugin` source.
    public var subscription: ActionSubscription? {
        guard case .plugin(let plugin) = source, let pattern = TypePattern("\(plugin)/*") else { return nil }
        return ActionSubscription(pattern)
    }

    /// `state.NAME`: `availability` and `location`.
    public var slice: StateSlice? {
        LocationSlice.slice(name: name)
    }

    /// The slice alone, for reducing without running: it depends only on the name, so the
    /// source and filter settings (a route file or a threshold from the environment) are not read.
    public static func slice(name: String, settings: PluginSettings) throws -> StateSlice? {
        LocationSlice.slice(name: name)
    }

    /// Follows the source until cancelled.
    public func run(context: PluginContext) async throws {
        let stopwatch = Stopwatch(clock: context.clock)
        let current = context.slice["availability"]?.stringValue.flatMap(Availability.init(rawValue:))
        var engine = LocationEngine(filter: filter, sourceName: source.name, availability: current ?? .unavailable)
        switch source {
        case .plugin(let plugin):
            // A restarted emitter catches up with the source's status from its slice.
            if let status = context.state[plugin]?["status"]?.stringValue {
                await emit(engine.sourceStatus(status), context)
            }
            for await action in context.actions {
                if action.type == "\(plugin)/fix" {
                    await emit(engine.receive(PositionSample(gpsdFix: action.payload), at: stopwatch.elapsed), context, cause: action.id)
                } else if action.type == "\(plugin)/status", let status = action.payload["status"]?.stringValue {
                    await emit(engine.sourceStatus(status), context, cause: action.id)
                }
            }
        case .fixed(var sample):
            sample.timestamp = Timestamp.iso8601(Date())
            await emit(engine.receive(sample, at: stopwatch.elapsed), context)
            await Self.waitForCancellation()
        case .replay(let path, let player):
            if let skipped = player.track.skipped { context.log.warning("\(path): \(skipped)") }
            await emit(engine.sourceStarted("replaying \(path)"), context)
            do {
                try await player.play(on: context.clock) { sample in
                    await emit(engine.receive(sample, at: stopwatch.elapsed), context)
                }
            } catch {
                return
            }
            await emit(engine.sourceEnded("the replay of \(path) ended"), context)
            await Self.waitForCancellation()
        }
    }

    private func emit(_ outputs: [LocationEngine.Output], _ context: PluginContext, cause: UInt64? = nil) async {
        for output in outputs {
            switch output {
            case .availability(let availability, let reason):
                await context.dispatch(
                    "\(name)/availability", payload: ["availability": .string(availability.rawValue), "reason": .string(reason)],
                    cause: cause)
            case .changed(let location):
                await context.dispatch("\(name)/changed", payload: location, cause: cause)
            }
        }
    }

    /// Returns when the task is cancelled: a finished source still keeps its plugin running,
    /// since a plugin that returns is not restarted.
    private static func waitForCancellation() async {
        let (stream, continuation) = AsyncStream<Never>.makeStream()
        await withTaskCancellationHandler {
            for await _ in stream {}
        } onCancel: {
            continuation.finish()
        }
    }
}
