import Foundation
import SwitchyardBus
import Testing

/// The default data directory: one per bus, or systemd's state directory.
struct DataDirectoryTests {
    private func bus(_ json: String, environment: [String: String] = [:]) throws -> BusSettings {
        try BusConfiguration.parse(#"{"bus": \#(json), "plugins": []}"#, file: "d.json", environment: environment, knownKinds: []).bus
    }

    /// Without `dataDirectory`, a bus keeps its data in `.switchyard/<name>`.
    @Test func defaultIsPerBus() throws {
        #expect(try bus(#"{"name": "demo"}"#).dataDirectory == ".switchyard/demo")
        #expect(try bus(#"{"name": "tracker"}"#).dataDirectory == ".switchyard/tracker")
        let unnamed = try BusConfiguration.parse(#"{"plugins": []}"#, file: "d.json", environment: [:], knownKinds: [])
        #expect(unnamed.bus.dataDirectory == ".switchyard/switchyard")
        #expect(BusSettings(name: "coded").dataDirectory == ".switchyard/coded")
    }

    /// A `dataDirectory` in the file wins over every default.
    @Test func explicitDirectoryWins() throws {
        #expect(try bus(#"{"name": "demo", "dataDirectory": "/srv/demo"}"#, environment: ["STATE_DIRECTORY": "/var/lib/switchyard/demo"])
            .dataDirectory == "/srv/demo")
    }

    /// Under systemd (`StateDirectory=`), the first entry of `$STATE_DIRECTORY` is the default.
    @Test func systemdStateDirectory() throws {
        #expect(try bus(#"{"name": "demo"}"#, environment: ["STATE_DIRECTORY": "/var/lib/switchyard/demo"]).dataDirectory
            == "/var/lib/switchyard/demo")
        #expect(try bus(#"{"name": "demo"}"#, environment: ["STATE_DIRECTORY": "/var/lib/a:/var/lib/b"]).dataDirectory == "/var/lib/a")
        let unnamed = try BusConfiguration.parse(#"{"plugins": []}"#, file: "d.json", environment: ["STATE_DIRECTORY": "/state"], knownKinds: [])
        #expect(unnamed.bus.dataDirectory == "/state")
    }

    /// A name that cannot be a directory is refused when it would name one, with the way out.
    @Test(arguments: ["a/b", "..", "."])
    func unusableNameIsAProblem(name: String) throws {
        let error = #expect(throws: ConfigurationError.self) { try bus(#"{"name": "\#(name)"}"#) }
        #expect(error?.description.contains("bus.name:") == true)
        #expect(error?.description.contains("set bus.dataDirectory") == true)
        #expect(try bus(#"{"name": "\#(name)", "dataDirectory": "data"}"#).dataDirectory == "data")
    }

    /// `"$schema"` at the top level is accepted (editors use it); it must be a string.
    @Test func schemaKeyIsAccepted() throws {
        let configuration = try BusConfiguration.parse(#"{"$schema": "switchyard.schema.json", "plugins": []}"#,
                                                       file: "s.json", environment: [:], knownKinds: [])
        #expect(configuration.plugins.isEmpty)
        #expect(throws: ConfigurationError.self) {
            try BusConfiguration.parse(#"{"$schema": 3, "plugins": []}"#, file: "s.json", environment: [:], knownKinds: [])
        }
    }
}
