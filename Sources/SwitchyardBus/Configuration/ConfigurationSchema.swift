/// The JSON Schema (draft 2020-12) of a configuration file, built from the bus's own settings
/// and every registered plugin kind's ``SettingDescription``s, so editors complete and check
/// config files (`switchyard schema > Config/switchyard.schema.json`, then `"$schema"` in a
/// config names it).
///
/// The schema checks what it can say without running anything: the keys of the bus section
/// and of each plugin kind (unknown keys are errors, as they are for the bus), value types,
/// ranges and choices, and the required keys. Checks that need code — a replay file that
/// exists, two settings that contradict each other — stay with `switchyard validate`.
public enum ConfigurationSchema {
    /// The draft the document follows.
    public static let draft = "https://json-schema.org/draft/2020-12/schema"

    /// The schema for configurations that may use the kinds in `registry`.
    public static func document(registry: PluginRegistry) -> JSON {
        var definitions: [String: JSON] = [
            "environment": [
                "description": "A ${VAR} or ${VAR:-default} reference, expanded from the environment when the bus loads the file.",
                "type": "string",
                "pattern": #"^\$\{[A-Za-z_][A-Za-z0-9_]*(:-[^}]*)?\}$"#,
            ],
            "restart": restart,
        ]
        var conditions: [JSON] = []
        for type in registry.pluginTypes {
            definitions["plugin-" + type.kind] = plugin(type)
            conditions.append([
                "if": ["properties": ["kind": ["const": .string(type.kind)]], "required": ["kind"]],
                "then": ["$ref": .string("#/$defs/plugin-" + type.kind)],
            ])
        }
        definitions["plugin"] = [
            "type": "object",
            "required": ["name", "kind"],
            "properties": [
                "kind": ["description": "The plugin kind.", "enum": .array(registry.kinds.map(JSON.string))],
            ],
            "allOf": .array(conditions),
        ]
        return [
            "$schema": .string(draft),
            "title": "Switchyard configuration",
            "description": "A plugin set: the bus settings and the plugins to start, in file order.",
            "type": "object",
            "required": ["plugins"],
            "additionalProperties": false,
            "properties": [
                "$schema": ["description": "The schema editors check this file against.", "type": "string"],
                "bus": object(BusSettings.settingDescriptions, description: "The bus's own settings; every key is optional."),
                "plugins": ["description": "The plugins, started in file order and stopped in reverse.",
                            "type": "array", "items": ["$ref": "#/$defs/plugin"]],
            ],
            "$defs": .object(definitions),
        ]
    }

    /// One plugin kind's entry: the keys every entry has, and the kind's own settings.
    private static func plugin(_ type: any Plugin.Type) -> JSON {
        var entry = object(type.settingDescriptions, description: "\(type.kind): \(type.summary)").objectValue ?? [:]
        var properties = entry["properties"]?.objectValue ?? [:]
        properties["name"] = [
            "description": "The plugin's name: lower-case letters, digits and '-', starting with a letter; the domain of its actions.",
            "type": "string", "pattern": "^[a-z][a-z0-9-]{0,63}$",
        ]
        properties["kind"] = ["const": .string(type.kind)]
        properties["restart"] = ["$ref": "#/$defs/restart"]
        entry["properties"] = .object(properties)
        var required = entry["required"]?.arrayValue ?? []
        required.insert(contentsOf: ["name", "kind"], at: 0)
        entry["required"] = .array(required)
        return .object(entry)
    }

    /// An object with `settings` as its keys; dotted keys (`request.url`) become nested objects.
    static func object(_ settings: [SettingDescription], description: String? = nil) -> JSON {
        var properties: [String: JSON] = [:]
        var required: [JSON] = []
        var nested: [String: [SettingDescription]] = [:]
        var nestedOrder: [String] = []
        for setting in settings {
            if let dot = setting.key.firstIndex(of: ".") {
                let outer = String(setting.key[..<dot])
                var inner = setting
                inner.key = String(setting.key[setting.key.index(after: dot)...])
                if nested[outer] == nil { nestedOrder.append(outer) }
                nested[outer, default: []].append(inner)
            } else {
                properties[setting.key] = setting.valueSchema
                if setting.defaultValue == nil { required.append(.string(setting.key)) }
            }
        }
        for outer in nestedOrder {
            let inner = nested[outer] ?? []
            properties[outer] = object(inner)
            // An object with a required key is itself required.
            if inner.contains(where: { $0.defaultValue == nil }) { required.append(.string(outer)) }
        }
        var schema: [String: JSON] = ["type": "object", "properties": .object(properties), "additionalProperties": false]
        if !required.isEmpty { schema["required"] = .array(required) }
        if let description { schema["description"] = .string(description) }
        return .object(schema)
    }

    private static let restart: JSON = [
        "description": "What the bus does when the plugin's run fails: a policy, or an object with its limits.",
        "anyOf": [
            ["enum": ["on-failure", "always", "never"]],
            [
                "type": "object",
                "additionalProperties": false,
                "properties": [
                    "policy": ["enum": ["on-failure", "always", "never"], "default": "on-failure"],
                    "maxRestarts": ["type": "integer", "minimum": 0, "maximum": 1_000_000, "default": 5,
                                    "description": "Restarts allowed within the window before the bus gives up on the plugin."],
                    "window": ["type": "number", "exclusiveMinimum": 0, "default": 60, "description": "Seconds."],
                    "initialBackoff": ["type": "number", "exclusiveMinimum": 0, "default": 0.1,
                                       "description": "Seconds before the first restart; doubles per restart."],
                    "maxBackoff": ["type": "number", "exclusiveMinimum": 0, "default": 30, "description": "Longest backoff, in seconds."],
                ],
            ],
        ],
    ]
}

extension BusSettings {
    /// The `"bus"` section's keys, as `switchyard schema` describes them. A key the section
    /// reads must be listed here, or the schema rejects configuration files that use it.
    public static let settingDescriptions: [SettingDescription] = [
        SettingDescription("name", "string", default: "\"switchyard\"", "The bus's name, shown in logs; names its data directory."),
        SettingDescription("dataDirectory", "path", default: "none",
                           "Where the journal and control socket live; default .switchyard/<name>, or $STATE_DIRECTORY under systemd."),
        SettingDescription("journal.fsync", "\"always\" | \"interval\" | \"never\"", default: "\"interval\"", "When the journal is flushed to disk."),
        SettingDescription("journal.snapshotEvery", "integer ≥ 1", default: "10000", "Actions journaled between state snapshots."),
        SettingDescription("stopTimeout", "number of seconds > 0", default: "10", "How long plugins get to stop on shutdown."),
        SettingDescription("inboxCapacity", "integer 1-10000000", default: "4096", "Actions waiting in the store's inbox before senders wait."),
        SettingDescription("http.listen", "string", default: "\"127.0.0.1:8080\"",
                           "Serve the dashboard, /metrics, /healthz, /readyz and /api over HTTP at HOST:PORT (a numeric address); no http section serves none."),
        SettingDescription("http.token", "string", default: "none",
                           "The token clients present (Authorization: Bearer, or ?token= once, then a cookie); required off loopback."),
        SettingDescription("http.maxConnections", "integer 1-10000", default: "64", "HTTP connections served at once; one more gets 503."),
        SettingDescription("http.requestTimeout", "number of seconds > 0", default: "10", "How long a client may take to send one request; then 408."),
        SettingDescription("http.idleTimeout", "number of seconds > 0", default: "5",
                           "How long a kept-alive connection may wait for its next request; when every slot is taken, the longest idle one is closed first."),
        SettingDescription("http.hosts", "array of strings", default: "[]",
                           "Host names a request's Host may name besides loopback names and the listen address; others get 421 (DNS rebinding). \"*\" accepts any (needs a token)."),
        SettingDescription("http.tiles", "string", default: "none",
                           "A map tile URL template with {z}, {x} and {y} (http or https), drawn by the browser under the dashboard's tracks; none draws the offline grid only."),
        SettingDescription("logLevel", "\"trace\" | \"debug\" | \"info\" | \"warning\" | \"error\"", default: "\"info\"",
                           "The lowest level of log lines on stderr; --log-level overrides it."),
    ]
}
