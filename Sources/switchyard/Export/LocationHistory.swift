import FoundationEssentials
import SwitchyardBus

/// One recorded position, from an action a plugin kind's ``PositionSource`` reads.
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

extension TrackPoint {
    /// `position` as carried by the action `actionID`.
    init(_ position: Position, actionID: UInt64) {
        self.init(latitude: position.latitude, longitude: position.longitude, altitude: position.altitude, time: position.time,
                  horizontalAccuracy: position.horizontalAccuracy, speed: position.speed, course: position.course,
                  mode: position.mode, actionID: actionID)
    }
}

/// The positions of one plugin, split into segments where the position was lost (a new bus
/// run, or an action its kind's ``PositionSource/loss`` names).
struct LocationTrack: Sendable, Equatable {
    var plugin: String
    /// The kind whose position source read the points.
    var kind: String
    var segments: [[TrackPoint]] = []

    var points: [TrackPoint] { segments.flatMap { $0 } }
}

/// Collects the location history of a journal, action by action: a pure fold, so it reads a
/// journal of any length one action at a time.
///
/// A plugin's actions are told by their contract, since a journal does not say which kind of
/// plugin emitted them: the first of `sources` that reads a position from an action wins, and
/// an action any of them calls a loss of position ends the segment of its source's track.
struct LocationHistory: Sendable {
    private(set) var tracks: [LocationTrack] = []
    private let sources: [(kind: String, source: PositionSource)]
    private var index: [String: Int] = [:]
    /// Plugins whose next position starts a new segment.
    private var broken: Set<String> = []

    /// A fold reading positions with `sources` (see ``PluginRegistry/positionSources``).
    init(sources: [(kind: String, source: PositionSource)]) {
        self.sources = sources
    }

    /// Takes one journaled action in order.
    mutating func add(_ action: BusAction) {
        if action.type == "bus/started" {
            broken = Set(index.keys)
            return
        }
        for (kind, source) in sources {
            if let position = source.position(in: action) {
                return append(TrackPoint(position, actionID: action.id), plugin: action.source, kind: kind)
            }
            if source.losesPosition(action) {
                if index[action.source] != nil { broken.insert(action.source) }
                return
            }
        }
    }

    private mutating func append(_ point: TrackPoint, plugin: String, kind: String) {
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
}
