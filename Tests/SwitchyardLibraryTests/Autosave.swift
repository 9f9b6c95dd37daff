import SwitchyardBus

/// A plugin of the user's own: on each edit it says a save is pending, and once edits have
/// paused for `quietPeriod` of the bus clock it saves, caused by the last edit; its slice
/// counts the saves.
struct Autosave: Plugin {
    static let kind = "autosave"
    static let summary = "Saves once edits have paused."
    static let settingDescriptions = [
        SettingDescription("quietPeriod", "number of seconds > 0", default: "2", "Time without edits before saving.")
    ]

    let name: String
    let quietPeriod: Duration

    init(name: String, settings: PluginSettings) throws {
        self.name = name
        quietPeriod = settings.seconds("quietPeriod", default: .seconds(2), range: 0.001...3600)
        try settings.finish()
    }

    /// Made directly, as a test that hands in instances does.
    init(name: String, quietPeriod: Duration) {
        self.name = name
        self.quietPeriod = quietPeriod
    }

    var subscription: ActionSubscription? { ActionSubscription(TypePattern("document/edited")!) }

    var slice: StateSlice? {
        let saved = "\(name)/saved"
        return StateSlice(initial: ["saves": 0]) { slice, action in
            guard action.type == saved else { return }
            slice["saves"] = .integer(Int64((slice["saves"]?.intValue ?? 0) + 1))
        }
    }

    func run(context: PluginContext) async throws {
        await context.actions.forEach(policy: .latest) { edit in
            await context.dispatch("\(context.name)/pending", cause: edit.id)
            do {
                try await context.sleep(for: quietPeriod)
            } catch {
                return
            }
            await context.dispatch("\(context.name)/saved", payload: edit.payload, cause: edit.id)
        }
    }
}
