import SwitchyardBus

/// The `stats` reply laid out for people.
struct StatsReport {
    let stats: JSON

    init(_ stats: JSON) {
        self.stats = stats
    }

    var text: String {
        var lines: [String] = []
        let uptime = Self.duration(stats["uptime"]?.doubleValue ?? 0)
        lines.append("bus \(stats["name"] ?? "?"): up \(uptime), \(number("actions")) actions (\(stats["actionsPerSecond"]?.doubleValue ?? 0)/s), "
            + "inbox \(stats.value(atPath: "inbox.queued") ?? 0)/\(stats.value(atPath: "inbox.capacity") ?? 0), rejected \(number("rejected"))")
        let plugins = stats["plugins"]?.arrayValue ?? []
        let columns = ["name", "kind", "status", "emitted", "restarts", "failures", "dropped", "queued"]
        var rows = [["plugin", "kind", "status", "emitted", "restarts", "failures", "dropped", "queued"]]
        for plugin in plugins {
            rows.append(columns.map { column in plugin[column].map { $0.stringValue ?? $0.serialized() } ?? "" })
        }
        let widths = columns.indices.map { index in rows.map { $0[index].count }.max() ?? 0 }
        for row in rows {
            lines.append("  " + zip(row, widths).map { $0.padded(to: $1) }.joined(separator: "  "))
        }
        for plugin in plugins {
            if let error = plugin["lastError"]?.stringValue { lines.append("  \(plugin["name"]?.stringValue ?? "?") last error: \(error)") }
        }
        if let control = stats["control"], !control.isNull {
            lines.append("control: \(control["clients"] ?? 0) clients (\(control["watchers"] ?? 0) watching), \(control["requests"] ?? 0) requests, "
                + "\(control["errors"] ?? 0) errors, \(control["watchersDropped"] ?? 0) watchers dropped, \(control["refused"] ?? 0) refused")
        }
        if let journal = stats["journal"], !journal.isNull {
            var line = "journal: \(ByteCount.text(journal["bytes"]?.intValue ?? 0)) in \(journal["segments"] ?? 0) segments, "
                + "last sequence \(journal["lastSequence"] ?? 0)"
            if let snapshot = journal["snapshotSequence"]?.intValue { line += ", snapshot \(snapshot)" }
            line += ", fsync \(journal["fsync"]?.stringValue ?? "?")"
            if let failure = journal["failure"]?.stringValue { line += "; FAILED: \(failure)" }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }

    private func number(_ key: String) -> String {
        stats[key].map { $0.serialized() } ?? "0"
    }

    static func duration(_ seconds: Double) -> String {
        let total = Int(seconds)
        if total < 60 { return "\((seconds * 10).rounded() / 10)s" }
        if total < 3600 { return "\(total / 60)m \(total % 60)s" }
        if total < 86_400 { return "\(total / 3600)h \(total % 3600 / 60)m" }
        return "\(total / 86_400)d \(total % 86_400 / 3600)h"
    }
}
