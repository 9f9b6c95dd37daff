import FoundationEssentials
import SwitchyardBus

/// Finds the data directory of the bus a client command means.
///
/// In order: `--data-dir DIR`; `--bus NAME`, looked up in each root of ``roots`` (the first
/// that has it); `--config FILE`, whose `bus` section names it; `$SWITCHYARD_DATA`; and with
/// none of those, the only bus in the roots — `.switchyard/` in the working directory (or
/// `.switchyard` itself) and `/var/lib/switchyard/` where an installed service keeps its state. When the roots hold
/// several buses, those with a control socket are preferred (client commands need a running
/// bus); if that still leaves several, the error lists them with the `--bus` to choose.
struct BusLocator {
    /// Why no single data directory could be chosen.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Where buses keep their data directories, `NAME` under each.
    var roots: [String]
    var environment: [String: String]

    /// The roots of this process: `.switchyard` in the working directory, then the state
    /// directory of installed services.
    static let standardRoots = [BusSettings.defaultDataRoot, "/var/lib/switchyard"]

    init(roots: [String] = BusLocator.standardRoots, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.roots = roots
        self.environment = environment
    }

    /// The data directory of the bus called `name`.
    func directory(ofBus name: String) throws(Failure) -> String {
        guard !name.isEmpty, !name.contains("/"), name != ".", name != ".." else {
            throw Failure(description: "\(JSON.string(name).serialized()) is not a bus name")
        }
        for root in roots where Self.isDataDirectory(root + "/" + name) {
            return root + "/" + name
        }
        let known = buses()
        let listing = known.isEmpty ? "there are none" : "known buses: " + known.map(\.name).joined(separator: ", ")
        throw Failure(description: "no bus named \"\(name)\" in \(roots.joined(separator: " or ")) (\(listing))")
    }

    /// The data directory meant when the command line names none: `$SWITCHYARD_DATA`, else
    /// the only bus in the roots.
    func defaultDirectory() throws(Failure) -> String {
        if let named = environment["SWITCHYARD_DATA"], !named.isEmpty { return named }
        let found = buses()
        if found.count == 1 { return found[0].directory }
        let running = found.filter { FileManager.default.fileExists(atPath: BusServices.socketPath(dataDirectory: $0.directory)) }
        if running.count == 1 { return running[0].directory }
        guard !found.isEmpty else {
            throw Failure(description: "no bus found in \(roots.joined(separator: " or ")); start one with "
                + "`switchyard run CONFIG`, or name its data directory with --bus NAME, --data-dir DIR or SWITCHYARD_DATA")
        }
        let listed = (running.isEmpty ? found : running).map { bus in
            bus.name == bus.directory ? "  --data-dir \(bus.directory)" : "  --bus \(bus.name)    (\(bus.directory))"
        }
        throw Failure(description: "there are \(listed.count) buses; choose one:\n" + listed.joined(separator: "\n"))
    }

    /// Every bus data directory in the roots, by name; a name in two roots counts once (the
    /// first). A root that is itself a data directory (a configuration's own
    /// `"dataDirectory": ".switchyard"`) counts too, named by its path.
    func buses() -> [(name: String, directory: String)] {
        var seen = Set<String>()
        var found: [(name: String, directory: String)] = []
        for root in roots {
            if Self.isDataDirectory(root) { found.append((root, root)) }
            let names = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
            for name in names.sorted() where !seen.contains(name) && Self.isDataDirectory(root + "/" + name) {
                seen.insert(name)
                found.append((name, root + "/" + name))
            }
        }
        return found
    }

    /// Whether `path` is a bus's data directory: it has a journal, a lock or a control socket.
    static func isDataDirectory(_ path: String) -> Bool {
        ["journal", "bus.lock", "control.sock"].contains { FileManager.default.fileExists(atPath: path + "/" + $0) }
    }
}
