import FoundationEssentials
import SwitchyardBus

/// One recorded position, from a `NAME/changed` of a location emitter or a `NAME/fix` of a
/// gpsd plugin.
struct TrackPoint: Sendable, Equatable {
    var latitude: Double
    var longitude: Double
    /// Metres; a gpsd fix's `altMSL`, else its `altHAE`.
    var altitude: Double?
    /// The position's own time; the time the bus reduced it when the source gave none.
    var time: Date
    /// Metres (the emitter's `horizontalAccuracy`, gpsd's `eph`).
    var horizontalAccuracy: Double?
    /// Metres per second.
    var speed: Double?
    /// Degrees from true north.
    var course: Double?
    /// The fix mode, 2 (2D) or 3 (3D), when known.
    var mode: Int?
    /// The id of the action that carried it.
    var actionID: UInt64
}

/// The positions of one plugin, split into segments where the position was lost (a new bus
/// run, a location emitter no longer `available`, a gpsd feed no longer `connected`).
struct LocationTrack: Sendable, Equatable {
    enum Kind: String, Sendable {
        case locationEmitter = "location-emitter"
        case gpsd
    }

    var plugin: String
    var kind: Kind
    var segments: [[TrackPoint]] = []

    var points: [TrackPoint] { segments.flatMap { $0 } }
}

/// Collects the location history of a journal, action by action: a pure fold, so it reads a
/// journal of any length one action at a time.
///
/// A plugin's actions are told by their contract, since a journal does not say which kind of
/// plugin emitted them: `X/changed` from source `X` with numeric `latitude` and `longitude`
/// (location-emitter), or `X/fix` from source `X` with numeric `lat` and `lon` and a mode of
/// 2 or more (gpsd). Anything else, positions out of range included, is not a position.
struct LocationHistory: Sendable {
    private(set) var tracks: [LocationTrack] = []
    private var index: [String: Int] = [:]
    /// Plugins whose next position starts a new segment.
    private var broken: Set<String> = []

    init() {}

    /// Takes one journaled action in order.
    mutating func add(_ action: BusAction) {
        if action.type == "bus/started" {
            broken = Set(index.keys)
            return
        }
        guard let slash = action.type.lastIndex(of: "/") else { return }
        let plugin = String(action.type[..<slash])
        guard action.source == plugin else { return }
        switch action.type[action.type.index(after: slash)...] {
        case "changed":
            if let point = Self.emitterPoint(action) { append(point, plugin: plugin, kind: .locationEmitter) }
        case "fix":
            if let point = Self.fixPoint(action) { append(point, plugin: plugin, kind: .gpsd) }
        case "availability" where action.payload["availability"]?.stringValue != "available":
            if index[plugin] != nil { broken.insert(plugin) }
        case "status" where action.payload["status"]?.stringValue != "connected":
            if index[plugin] != nil { broken.insert(plugin) }
        default:
            break
        }
    }

    private mutating func append(_ point: TrackPoint, plugin: String, kind: LocationTrack.Kind) {
        guard let position = index[plugin] else {
            index[plugin] = tracks.count
            tracks.append(LocationTrack(plugin: plugin, kind: kind, segments: [[point]]))
            return
        }
        if broken.remove(plugin) != nil || tracks[position].segments.isEmpty {
            tracks[position].segments.append([point])
        } else {
            tracks[position].segments[tracks[position].segments.count - 1].append(point)
        }
    }

    /// A location emitter's `NAME/changed` payload as a point.
    static func emitterPoint(_ action: BusAction) -> TrackPoint? {
        let payload = action.payload
        guard let latitude = payload["latitude"]?.doubleValue, let longitude = payload["longitude"]?.doubleValue,
            isCoordinate(latitude, longitude)
        else { return nil }
        return TrackPoint(
            latitude: latitude, longitude: longitude, altitude: finite(payload["altitude"]),
            time: payload["timestamp"]?.stringValue.flatMap(Timestamp.parseISO8601) ?? action.time,
            horizontalAccuracy: finite(payload["horizontalAccuracy"]), speed: finite(payload["speed"]),
            course: finite(payload["course"]), mode: payload["mode"]?.intValue, actionID: action.id)
    }

    /// A gpsd plugin's `NAME/fix` payload as a point; `nil` without a 2D or 3D position.
    static func fixPoint(_ action: BusAction) -> TrackPoint? {
        let payload = action.payload
        guard let mode = payload["mode"]?.intValue, mode >= 2,
            let latitude = payload["lat"]?.doubleValue, let longitude = payload["lon"]?.doubleValue,
            isCoordinate(latitude, longitude)
        else { return nil }
        return TrackPoint(
            latitude: latitude, longitude: longitude, altitude: finite(payload["altMSL"]) ?? finite(payload["altHAE"]),
            time: payload["time"]?.stringValue.flatMap(Timestamp.parseISO8601) ?? action.time,
            horizontalAccuracy: finite(payload["eph"]), speed: finite(payload["speed"]),
            course: finite(payload["track"]), mode: mode, actionID: action.id)
    }

    private static func isCoordinate(_ latitude: Double, _ longitude: Double) -> Bool {
        (-90...90).contains(latitude) && (-180...180).contains(longitude)
    }

    private static func finite(_ value: JSON?) -> Double? {
        guard let number = value?.doubleValue, number.isFinite else { return nil }
        return number
    }
}
