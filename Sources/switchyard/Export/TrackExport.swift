import FoundationEssentials
import SwitchyardBus

/// `journal export --gpx | --geojson [--plugin NAME]`: the location history of a journal range
/// as a file map tools open.
struct TrackExport: Sendable {
    /// What `journal export` writes.
    enum Format: String, Sendable, CaseIterable {
        case jsonl, gpx, geojson

        /// `--format`, `--gpx` and `--geojson`, which must agree.
        /// - Throws: ``UsageError`` for an unknown format or two different ones.
        static func parse(_ parsed: ParsedArguments) throws(UsageError) -> Format {
            var chosen: [(option: String, format: Format)] = []
            if let text = parsed.value("format") {
                guard let format = Format(rawValue: text) else {
                    throw UsageError("--format expects jsonl, gpx or geojson, got \"\(text)\"", path: parsed.path)
                }
                chosen.append(("--format \(text)", format))
            }
            if parsed.flag("gpx") { chosen.append(("--gpx", .gpx)) }
            if parsed.flag("geojson") { chosen.append(("--geojson", .geojson)) }
            if let first = chosen.first, let other = chosen.first(where: { $0.format != first.format }) {
                throw UsageError("\(first.option) and \(other.option) ask for different formats: give one", path: parsed.path)
            }
            return chosen.first?.format ?? .jsonl
        }
    }

    /// Why there is nothing to export.
    struct NothingToExport: Error, CustomStringConvertible {
        let description: String
    }

    let format: Format
    /// Only this plugin's track; `nil` for every plugin's.
    let plugin: String?
    /// What reads positions from actions: the program's plugin kinds'.
    let sources = BuiltInPlugins.registry.positionSources

    /// - Throws: ``UsageError`` when `--plugin` comes without a location format, or with
    ///   `--types` (the format picks the actions).
    init(format: Format, _ parsed: ParsedArguments) throws(UsageError) {
        self.format = format
        plugin = parsed.value("plugin")
        if format == .jsonl, plugin != nil {
            throw UsageError("--plugin picks a track for --gpx or --geojson; for JSON lines use --types 'NAME/*'", path: parsed.path)
        }
        if format != .jsonl, parsed.value("types") != nil {
            throw UsageError("--types does not apply to --\(format.rawValue), which takes every position; --plugin NAME picks one track", path: parsed.path)
        }
    }

    /// The document for the tracks of `actions` (in journal order), written at `created`.
    /// - Throws: ``NothingToExport`` when there is no position (of `plugin`).
    func document(_ actions: some Sequence<BusAction>, range: String, created: Date) throws(NothingToExport) -> [UInt8] {
        var history = LocationHistory(sources: sources)
        for action in actions { history.add(action) }
        var tracks = history.tracks
        if let plugin {
            tracks = tracks.filter { $0.plugin == plugin }
            if tracks.isEmpty {
                let known = history.tracks.map(\.plugin)
                throw NothingToExport(description: "no positions of a plugin called \"\(plugin)\" \(range)"
                    + (known.isEmpty ? "" : "; plugins with positions: \(known.joined(separator: ", "))"))
            }
        }
        guard !tracks.isEmpty else {
            let kinds = sources.map { "\($0.kind) \($0.source.summary)" }.joined(separator: " or ")
            throw NothingToExport(description: "no positions \(range): no \(kinds)")
        }
        switch format {
        case .gpx: return Array(GPXDocument.render(tracks, created: created).utf8)
        case .geojson, .jsonl: return Array((GeoJSONDocument.render(tracks).serialized() + "\n").utf8)
        }
    }
}
