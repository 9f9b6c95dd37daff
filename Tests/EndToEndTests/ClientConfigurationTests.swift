import Foundation
import SwitchyardTestSupport
import Testing

/// A client named a configuration needs the bus's name and data directory, not the variables
/// its plugins take from the server's environment.
@Suite(.serialized)
struct ClientConfigurationTests {
    /// The bus runs with `PLACES_URL` and `PLACES_TOKEN`; its clients, run without them, reach it.
    @Test func clientsDoNotNeedThePluginsVariables() async throws {
        let directory = try TemporaryDirectory()
        let server = ["PLACES_URL": "http://127.0.0.1:9/places", "PLACES_TOKEN": "places-token-1"]
        let path = try directory.write("places.json", """
            {"bus": {"name": "places", "dataDirectory": "data"},
             "plugins": [{"name": "places", "kind": "network-fetch", "on": "location/changed",
                          "request": {"url": "${PLACES_URL}", "headers": {"Authorization": "Bearer ${PLACES_TOKEN}"}}}]}
            """)
        let bus = try SwitchyardProcess(["run", path], directory: directory.url, environment: server)
        #expect(await bus.wait { $0.stderr.contains("ready:") }, "\(bus.stderr)")
        for arguments in [["send", "note/added", #"{"text":"hi"}"#], ["state"], ["stats"], ["journal", "export"]] {
            let client = try SwitchyardProcess(arguments + ["--config", path], directory: directory.url)
            #expect(await client.exitStatus() == 0, "\(arguments): \(client.stderr)")
            #expect(!client.stderr.contains("PLACES_URL"))
        }
        bus.signal(SIGTERM)
        #expect(await bus.exitStatus() == 0, "\(bus.stderr)")

        // The bus section is still read and checked.
        let unset = try directory.write("unset.json", #"{"bus": {"name": "${BUS_NAME}"}, "plugins": []}"#)
        let refused = try SwitchyardProcess(["state", "--config", unset], directory: directory.url)
        #expect(await refused.exitStatus() == 1)
        #expect(refused.stderr.contains("bus.name: environment variable BUS_NAME is not set"), "\(refused.stderr)")
    }

    /// A configuration's own `"dataDirectory": ".switchyard"` is found by a client given no flag.
    @Test func dataDirectoryDotSwitchyardIsFound() async throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("own.json", #"{"bus": {"name": "own", "dataDirectory": ".switchyard"}, "plugins": []}"#)
        let bus = try SwitchyardProcess(["run", path], directory: directory.url)
        #expect(await bus.wait { $0.stderr.contains("ready:") }, "\(bus.stderr)")
        let send = try SwitchyardProcess(["send", "note/added"], directory: directory.url)
        #expect(await send.exitStatus() == 0, "\(send.stderr)")
        let state = try SwitchyardProcess(["stats", "--json"], directory: directory.url)
        #expect(await state.exitStatus() == 0, "\(state.stderr)")
        #expect(state.stdout.contains(#""name":"own""#), "\(state.stdout)")
        bus.signal(SIGTERM)
        #expect(await bus.exitStatus() == 0, "\(bus.stderr)")
    }
}
