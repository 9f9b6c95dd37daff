import FoundationEssentials
import SwitchyardBus

/// `switchyard plugins [KIND] [--json]`: the plugin kinds and their settings.
enum PluginsCommand {
    static func run(_ parsed: ParsedArguments, registry: PluginRegistry) throws(UsageError) -> ExitStatus {
        var types = registry.pluginTypes
        if let kind = parsed[positional: "KIND"] {
            guard let type = registry.type(forKind: kind) else {
                var message = "unknown kind \"\(kind)\""
                if let suggestion = DidYouMean.suggestion(for: kind, among: registry.kinds) { message += "; did you mean \"\(suggestion)\"?" }
                throw UsageError(message + " (known kinds: \(registry.kinds.joined(separator: ", ")))", path: parsed.path)
            }
            types = [type]
        }
        Output.out(parsed.flag("json") ? json(types).serialized() : listing(types, common: parsed[positional: "KIND"] == nil))
        return .success
    }

    /// The kinds as a JSON array: `[{"kind", "summary", "settings": [{"key", "type", "default", "summary"}]}]`
    /// (`default` is `null` for a required key).
    static func json(_ types: [any Plugin.Type]) -> JSON {
        .array(types.map { type in
            [
                "kind": .string(type.kind),
                "summary": .string(type.summary),
                "settings": .array(type.settingDescriptions.map { setting in
                    [
                        "key": .string(setting.key),
                        "type": .string(setting.type),
                        "default": setting.defaultValue.map(JSON.string) ?? .null,
                        "summary": .string(setting.summary),
                    ]
                }),
            ]
        })
    }

    /// The kinds for people; `common` adds what every plugin entry takes.
    static func listing(_ types: [any Plugin.Type], common: Bool = true) -> String {
        var lines: [String] = []
        if common {
            lines += [
                "Every plugin entry takes \"name\" (required, lower-case letters, digits and '-'), \"kind\" (required),",
                "and \"restart\": \"on-failure\" (default) | \"always\" | \"never\", or an object",
                "{\"policy\", \"maxRestarts\" (5), \"window\" (60 s), \"initialBackoff\" (0.1 s), \"maxBackoff\" (30 s)}.",
                "",
            ]
        }
        for (index, type) in types.enumerated() {
            if index > 0 { lines.append("") }
            lines.append("\(type.kind): \(type.summary)")
            let keyWidth = type.settingDescriptions.map(\.key.count).max() ?? 0
            for setting in type.settingDescriptions {
                let key = setting.key.padded(to: keyWidth)
                let defaultText = setting.defaultValue.map { "default \($0)" } ?? "required"
                lines.append("  \(key)  \(setting.type); \(defaultText). \(setting.summary)")
            }
        }
        return lines.joined(separator: "\n")
    }
}
