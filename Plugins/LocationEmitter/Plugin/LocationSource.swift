import SwitchyardBus

/// Where the location emitter gets positions, as `"source"` configures it.
enum LocationSource: Sendable {
    /// `{"plugin": "gps"}`: the `NAME/fix` and `NAME/status` actions of a gpsd plugin.
    case plugin(String)
    /// `{"static": {"latitude": …, "longitude": …}}`: one fixed position, emitted at start.
    case fixed(PositionSample)
    /// `{"replay": "PATH", "speed": 10, "loop": true}`: an NMEA or GPX recording.
    case replay(path: String, player: ReplayPlayer)

    /// Reads the `source` object; problems are recorded on `settings` and give `nil`.
    static func read(_ settings: PluginSettings, ownName: String) -> LocationSource? {
        let forms = ["plugin", "static", "replay"].filter(settings.contains)
        let speed = settings.double("speed", default: 1, range: 0.001...1_000_000)
        let loop = settings.bool("loop", default: false)
        guard forms.count == 1, let form = forms.first else {
            settings.problem("", "expected exactly one of \"plugin\", \"static\" or \"replay\"" + (forms.isEmpty ? "" : ", got \(forms.joined(separator: " and "))"))
            for key in ["plugin", "static", "replay"] { _ = settings.json(key) }
            return nil
        }
        if form != "replay" {
            for key in ["speed", "loop"] where settings.contains(key) {
                settings.problem(key, "only a \"replay\" source takes \"\(key)\"")
            }
        }
        switch form {
        case "plugin":
            let plugin = settings.requiredString("plugin")
            guard !plugin.isEmpty else { return nil }
            guard TypePattern("\(plugin)/*") != nil else {
                settings.problem("plugin", "expected the name of a plugin (lower-case letters, digits, '-', '_', '.'), got \(JSON.string(plugin))")
                return nil
            }
            guard plugin != ownName else {
                settings.problem("plugin", "a location emitter cannot take fixes from itself")
                return nil
            }
            return .plugin(plugin)
        case "static":
            guard let position = settings.object("static") else { return nil }
            let latitude = position.double("latitude", range: -90...90)
            let longitude = position.double("longitude", range: -180...180)
            let altitude = position.double("altitude")
            let accuracy = position.double("horizontalAccuracy", range: 0...1e7)
            for key in ["latitude", "longitude"] where !position.contains(key) {
                position.problem("", "missing required key \(JSON.string(key).serialized())")
            }
            guard let latitude, let longitude else { return nil }
            return .fixed(PositionSample(
                mode: altitude == nil ? 2 : 3, coordinate: Coordinate(latitude: latitude, longitude: longitude),
                altitude: altitude, horizontalAccuracy: accuracy))
        default:
            // Relative to the configuration file's directory, so the demo's route installs beside it.
            let path = settings.inputPath("replay")
            guard !path.isEmpty else { return nil }
            do {
                let track = try ReplayTrack.load(path: path)
                return .replay(path: path, player: ReplayPlayer(track: track, speed: speed, loop: loop))
            } catch {
                settings.problem("replay", error.description)
                return nil
            }
        }
    }

    /// The name written as `source` in `NAME/changed`: the plugin's name, `static` or `replay`.
    var name: String {
        switch self {
        case .plugin(let plugin): plugin
        case .fixed: "static"
        case .replay: "replay"
        }
    }
}
