import Foundation
import SwitchyardPlugins
import SwitchyardTestSupport
import Testing

/// Nothing below the plugins knows a concrete plugin: the core, the runtime, the doors, the
/// test kits and the command line name no built-in kind and import no plugin module; they ask
/// the registry and the kinds' contributions instead.
struct LayeringTests {
    /// Folders of `Sources/` that may know the plugins, and why.
    static let exempt: [String: String] = [
        "SwitchyardPlugins": "registers the built-in kinds",
        "switchyard-bench": "benchmarks the plugins themselves, as their tests do",
    ]

    /// The built-in kinds, as string literals (`"gpsd"`), outside comments.
    @Test func noSourceNamesABuiltInKind() throws {
        let literals = PluginRegistry.builtIn.kinds.map { "\"\($0)\"" }
        let found = try Self.lines { line in literals.first { line.contains($0) } }
        #expect(found.isEmpty, "kinds named outside Plugins/:\n\(found.joined(separator: "\n"))")
    }

    /// `import` of a plugin's module (or of a plugin's C shim).
    @Test func noSourceImportsAPluginModule() throws {
        let modules = try Self.pluginModules()
        #expect(modules.count >= 7, "the plugin tables of Package.swift were not found: \(modules)")
        let found = try Self.lines { line in
            let words = line.split(whereSeparator: \.isWhitespace)
            guard let index = words.firstIndex(of: "import"), words[..<index].allSatisfy({ $0.hasPrefix("@") }),
                index + 1 < words.count, modules.contains(String(words[index + 1]))
            else { return nil }
            return String(words[index + 1])
        }
        #expect(found.isEmpty, "plugin modules imported outside Plugins/:\n\(found.joined(separator: "\n"))")
    }

    /// The target names of Package.swift's `plugins` and `pluginShims` tables: each entry a
    /// line `("Target", "Folder", ...)`.
    static func pluginModules() throws -> Set<String> {
        let manifest = try String(contentsOf: SwitchyardProcess.packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        guard let start = manifest.range(of: "let plugins:"), let end = manifest.range(of: "let pluginTargets") else { return [] }
        var modules: Set<String> = []
        for line in manifest[start.upperBound..<end.lowerBound].split(separator: "\n") {
            let trimmed = line.drop { $0 == " " }
            guard trimmed.hasPrefix("(\""), let close = trimmed.dropFirst(2).firstIndex(of: "\"") else { continue }
            modules.insert(String(trimmed[trimmed.index(trimmed.startIndex, offsetBy: 2)..<close]))
        }
        return modules
    }

    /// `file:line: what` for every code line (comments left out) of a Swift or C source outside
    /// the exempt folders of `Sources/` for which `match` names what it found.
    static func lines(where match: (Substring) -> String?) throws -> [String] {
        let root = SwitchyardProcess.packageRoot.appendingPathComponent("Sources")
        var found: [String] = []
        let files = try #require(FileManager.default.enumerator(atPath: root.path)).compactMap { $0 as? String }
        for file in files.sorted() where ["swift", "c", "h"].contains((file as NSString).pathExtension) {
            guard let folder = file.split(separator: "/").first, exempt[String(folder)] == nil else { continue }
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.drop { $0 == " " }
                if code.hasPrefix("//") || code.hasPrefix("*") || code.hasPrefix("/*") { continue }
                if let what = match(line) { found.append("Sources/\(file):\(number + 1): \(what)") }
            }
        }
        return found
    }
}
