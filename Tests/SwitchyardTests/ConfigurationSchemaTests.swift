import Foundation
@testable import Switchyard
@testable import SwitchyardBus
import Testing

/// `switchyard schema`: value schemas read from setting descriptions, and the document's shape.
struct ConfigurationSchemaTests {
    /// Each phrase of the setting-type vocabulary gives its schema.
    @Test(arguments: [
        ("boolean", ##"{"anyOf":[{"type":"boolean"},{"$ref":"#/$defs/environment"}]}"##),
        ("integer 1-65535", ##"{"anyOf":[{"maximum":65535,"minimum":1,"type":"integer"},{"$ref":"#/$defs/environment"}]}"##),
        ("integer ≥ 1", ##"{"anyOf":[{"minimum":1,"type":"integer"},{"$ref":"#/$defs/environment"}]}"##),
        ("bytes", ##"{"anyOf":[{"minimum":1,"type":"integer"},{"$ref":"#/$defs/environment"}]}"##),
        ("number of seconds > 0", ##"{"anyOf":[{"exclusiveMinimum":0,"type":"number"},{"$ref":"#/$defs/environment"}]}"##),
        ("seconds >= 0", ##"{"anyOf":[{"minimum":0,"type":"number"},{"$ref":"#/$defs/environment"}]}"##),
        ("number of seconds", ##"{"anyOf":[{"exclusiveMinimum":0,"type":"number"},{"$ref":"#/$defs/environment"}]}"##),
        (#""text" | "json""#, ##"{"anyOf":[{"enum":["text","json"]},{"$ref":"#/$defs/environment"}]}"##),
        ("GET | POST", ##"{"anyOf":[{"enum":["GET","POST"]},{"$ref":"#/$defs/environment"}]}"##),
        ("2 | 3", ##"{"anyOf":[{"enum":[2,3]},{"$ref":"#/$defs/environment"}]}"##),
        (#""stdout" | "stderr" | file path"#, #"{"type":"string"}"#),
        ("array of strings", #"{"items":{"type":"string"},"type":"array"}"#),
        ("subject pattern or array", ##"{"anyOf":[{"type":"string"},{"items":{"type":"string"},"minItems":1,"type":"array"}]}"##),
        ("object of strings", #"{"type":"object"}"#),
        (#"{"plugin": NAME} | {"replay": PATH}"#, #"{"type":"object"}"#),
        ("any JSON", "{}"),
        ("host name or address", #"{"type":"string"}"#),
    ])
    func inferredSchemas(type: String, expected: String) throws {
        #expect(SettingDescription.inferredSchema(type) == (try JSON(parsing: expected)))
    }

    /// The summary becomes the description, and a default written as JSON becomes the default.
    @Test func descriptionAndDefault() throws {
        let port = SettingDescription("port", "integer 1-65535", default: "2947", "gpsd's TCP port.").valueSchema
        #expect(port["description"] == "gpsd's TCP port.")
        #expect(port["default"] == 2947)
        let device = SettingDescription("device", "path", default: "every device", "Watch one device.").valueSchema
        #expect(device["default"] == nil)
        let explicit = SettingDescription("source", "object", "Where from.", schema: ["type": "object", "required": ["plugin"]]).valueSchema
        #expect(explicit["required"] == ["plugin"])
    }

    /// Required keys, nested keys and kinds appear where a validator looks for them.
    @Test func documentShape() throws {
        var registry = PluginRegistry()
        registry.register(SchemaProbePlugin.self)
        let document = ConfigurationSchema.document(registry: registry)
        #expect(document["$schema"] == "https://json-schema.org/draft/2020-12/schema")
        #expect(document["required"] == ["plugins"])
        #expect(document.value(atPath: "$defs.plugin.properties.kind.enum") == ["probe"])
        let probe = try #require(document.value(atPath: "$defs.plugin-probe"))
        #expect(probe["required"] == ["name", "kind", "on", "request"])
        #expect(probe["additionalProperties"] == false)
        #expect(probe.value(atPath: "properties.request.required") == ["url"])
        #expect(probe.value(atPath: "properties.request.properties.method.default") == "GET")
        #expect(document.value(atPath: "properties.bus.properties.journal.properties.fsync.default") == "interval")
    }
}

/// A plugin kind whose descriptions use required, nested and defaulted keys.
private struct SchemaProbePlugin: Plugin {
    static let kind = "probe"
    static let summary = "Exercises the schema."
    static let settingDescriptions: [SettingDescription] = [
        SettingDescription("on", "type pattern", "Triggers."),
        SettingDescription("request.url", "URL", "Where."),
        SettingDescription("request.method", "GET | POST", default: "\"GET\"", "How."),
        SettingDescription("every", "number of seconds > 0", default: "1", "How often."),
    ]

    init(name: String, settings: PluginSettings) throws {}

    func run(context: PluginContext) async throws {}
}
