/// What a reload changes, by plugin name: pure, so it is tested without a bus.
///
/// A plugin only in the old configuration is removed (stopped); one only in the new is added
/// (started, in file order); one in both whose kind, settings or restart policy changed is
/// restarted; the others keep running untouched. A removed plugin's state slice goes, and so
/// does that of a plugin whose kind changed; a restarted plugin of the same kind keeps its slice.
struct ReloadPlan: Sendable, Hashable {
    var added: [String] = []
    var removed: [String] = []
    var restarted: [String] = []
    var unchanged: [String] = []
    var droppedSlices: [String] = []

    /// The plan from the running declarations to the new ones.
    init(from old: [PluginDeclaration], to new: [PluginDeclaration]) {
        let running = Dictionary(old.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let wanted = Set(new.map(\.name))
        removed = old.map(\.name).filter { !wanted.contains($0) }
        for declaration in new {
            guard let current = running[declaration.name] else {
                added.append(declaration.name)
                continue
            }
            if current.kind == declaration.kind, current.settings == declaration.settings, current.restart == declaration.restart {
                unchanged.append(declaration.name)
            } else {
                restarted.append(declaration.name)
                if current.kind != declaration.kind { droppedSlices.append(declaration.name) }
            }
        }
        droppedSlices = removed + droppedSlices
    }

    /// Whether the plugins stay exactly as they are.
    var changesNothing: Bool { added.isEmpty && removed.isEmpty && restarted.isEmpty }

    /// The payload of `bus/reloaded`.
    var payload: JSON {
        func list(_ names: [String]) -> JSON { .array(names.map { .string($0) }) }
        return ["added": list(added), "removed": list(removed), "restarted": list(restarted),
                "unchanged": list(unchanged), "droppedSlices": list(droppedSlices)]
    }
}

/// What ``Bus/reload(_:)`` did.
public struct ReloadReport: Sendable, Hashable, CustomStringConvertible {
    /// Plugins started because the new configuration added them, in file order.
    public var added: [String]
    /// Plugins stopped because the new configuration no longer names them.
    public var removed: [String]
    /// Plugins stopped and started again because their kind, settings or restart policy changed.
    public var restarted: [String]
    /// Plugins left running untouched.
    public var unchanged: [String]
    /// Bus settings that took effect, such as `bus.stopTimeout`.
    public var appliedSettings: [String]
    /// Bus settings that changed but cannot while the bus runs, each with why; the running
    /// values stay until a restart.
    public var keptSettings: [String]

    /// `added a, b; removed c; restarted d; 2 unchanged`, then any kept settings.
    public var description: String {
        var parts: [String] = []
        if !added.isEmpty { parts.append("added \(added.joined(separator: ", "))") }
        if !removed.isEmpty { parts.append("removed \(removed.joined(separator: ", "))") }
        if !restarted.isEmpty { parts.append("restarted \(restarted.joined(separator: ", "))") }
        parts.append("\(unchanged.count) unchanged")
        if !appliedSettings.isEmpty { parts.append("applied \(appliedSettings.joined(separator: ", "))") }
        var text = parts.joined(separator: "; ")
        for kept in keptSettings { text += "; kept \(kept)" }
        return text
    }
}
