import SwitchyardBus

/// What a plugin's settings reading reports, for tests of its validation: `read` makes the
/// plugin (or reads its settings) and the answer is each ``PluginSettingsError`` problem's
/// description, in the order recorded.
///
/// ```swift
/// let problems = settingsProblems { try MyPlugin(name: "p", settings: PluginSettings(["port": "x"], path: "plugins[0]")) }
/// #expect(problems.count == 1)
/// ```
///
/// - Returns: The problems' descriptions; empty when `read` succeeds; one line
///   `unexpected error: …` when it throws anything other than a ``PluginSettingsError``.
public func settingsProblems<Made>(_ read: () throws -> Made) -> [String] {
    do {
        _ = try read()
        return []
    } catch let error as PluginSettingsError {
        return error.problems.map(\.description)
    } catch {
        return ["unexpected error: \(error)"]
    }
}
