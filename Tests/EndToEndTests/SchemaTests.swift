import Foundation
import SwitchyardTestSupport
import Testing

/// `switchyard schema`: a draft 2020-12 JSON Schema that the shipped configs satisfy and that
/// catches the mistakes an editor should underline.
struct SchemaTests {
    private static let root = SwitchyardProcess.packageRoot

    /// The shipped configs, except Config/systemd and the schema itself.
    private static var shippedConfigs: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Config").path)) ?? [])
            .filter { $0.hasSuffix(".json") && $0 != "switchyard.schema.json" }.sorted().map { "Config/" + $0 }
    }

    /// Validates `documents` against `schema` with python3's jsonschema; one verdict per document.
    private func validate(_ documents: [String], schema: String) throws -> [String: String]? {
        let check = Process()
        check.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        check.arguments = ["-c", """
            import json, sys
            try:
                import jsonschema
            except ImportError:
                print("missing"); sys.exit(0)
            schema = json.load(open(sys.argv[1]))
            jsonschema.Draft202012Validator.check_schema(schema)
            validator = jsonschema.Draft202012Validator(schema)
            for path in sys.argv[2:]:
                errors = sorted(validator.iter_errors(json.load(open(path))), key=lambda e: list(e.absolute_path))
                print(path + "\\t" + ("ok" if not errors else "/".join(map(str, errors[0].absolute_path)) + ": " + errors[0].message))
            """, schema] + documents
        check.currentDirectoryURL = Self.root
        let output = Pipe()
        check.standardOutput = output
        try check.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        check.waitUntilExit()
        #expect(check.terminationStatus == 0, "python3 failed: \(text)")
        if text.hasPrefix("missing") { return nil }
        var verdicts: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "\t", maxSplits: 1)
            if parts.count == 2 { verdicts[String(parts[0])] = String(parts[1]) }
        }
        return verdicts
    }

    /// The printed schema is the shipped Config/switchyard.schema.json, and every shipped config names it and satisfies it.
    @Test func shippedConfigsValidate() async throws {
        let schema = try SwitchyardProcess(["schema"])
        #expect(await schema.exitStatus() == 0)
        let document = try JSONSerialization.jsonObject(with: Data(schema.stdout.utf8)) as? [String: Any]
        #expect(document?["$schema"] as? String == "https://json-schema.org/draft/2020-12/schema")
        let shipped = try String(contentsOf: Self.root.appendingPathComponent("Config/switchyard.schema.json"), encoding: .utf8)
        #expect(shipped == schema.stdout, "Config/switchyard.schema.json is stale: run `swift run switchyard schema > Config/switchyard.schema.json`")
        for config in Self.shippedConfigs {
            let text = try String(contentsOf: Self.root.appendingPathComponent(config), encoding: .utf8)
            #expect(text.contains(#""$schema": "switchyard.schema.json""#), "\(config) does not name the schema")
        }
        guard let verdicts = try validate(Self.shippedConfigs, schema: "Config/switchyard.schema.json") else {
            try #require(ProcessInfo.processInfo.environment["CI"] == nil, "python3's jsonschema module is missing (Debian package python3-jsonschema)")
            print("skipped: python3's jsonschema module is missing (Debian package python3-jsonschema)")
            return
        }
        #expect(verdicts.count == Self.shippedConfigs.count)
        for config in Self.shippedConfigs { #expect(verdicts[config] == "ok", "\(config): \(verdicts[config] ?? "not checked")") }
    }

    /// Unknown keys, wrong types, bad choices and missing required keys fail the schema, as they fail `validate`.
    @Test func mistakesFailTheSchema() async throws {
        let directory = try TemporaryDirectory()
        let cases = [
            "typo": #"{"plugins": [{"name": "tick", "kind": "timer", "intervall": 1}]}"#,
            "type": #"{"plugins": [{"name": "gps", "kind": "gpsd", "port": "abc"}]}"#,
            "range": #"{"plugins": [{"name": "gps", "kind": "gpsd", "port": 70000}]}"#,
            "choice": #"{"plugins": [{"name": "log", "kind": "logger", "format": "xml"}]}"#,
            "required": #"{"plugins": [{"name": "fetch", "kind": "network-fetch", "on": "a/b"}]}"#,
            "kind": #"{"plugins": [{"name": "x", "kind": "loger"}]}"#,
            "bus": #"{"bus": {"nmae": "x"}, "plugins": []}"#,
            "name": #"{"plugins": [{"name": "Tick", "kind": "timer"}]}"#,
            "fine": #"{"$schema": "switchyard.schema.json", "bus": {"name": "x", "journal": {"fsync": "always"}}, "plugins": [{"name": "gps", "kind": "gpsd", "port": "${GPSD_PORT:-2947}", "restart": {"policy": "always", "maxRestarts": 3}}]}"#,
        ]
        var paths: [String: String] = [:]
        for (name, text) in cases { paths[name] = try directory.write(name + ".json", text) }
        let schema = try SwitchyardProcess(["schema"])
        #expect(await schema.exitStatus() == 0)
        let schemaPath = try directory.write("schema.json", schema.stdout)
        guard let verdicts = try validate(Array(paths.values), schema: schemaPath) else {
            try #require(ProcessInfo.processInfo.environment["CI"] == nil, "python3's jsonschema module is missing (Debian package python3-jsonschema)")
            return
        }
        for (name, path) in paths {
            if name == "fine" {
                #expect(verdicts[path] == "ok", "\(name): \(verdicts[path] ?? "not checked")")
            } else {
                #expect(verdicts[path] != nil && verdicts[path] != "ok", "\(name) passed the schema")
            }
        }
        // The bus agrees with the schema about the good one.
        let validated = try SwitchyardProcess(["validate", paths["fine"]!])
        #expect(await validated.exitStatus() == 0, "\(validated.stderr)")
    }
}
