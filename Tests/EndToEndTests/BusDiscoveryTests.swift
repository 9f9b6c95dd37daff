import Foundation
import SwitchyardTestSupport
import Testing

/// One data directory per bus, and clients that find the bus they mean from anywhere.
@Suite(.serialized)
struct BusDiscoveryTests {
    private func start(_ name: String, in directory: TemporaryDirectory) async throws -> SwitchyardProcess {
        let path = try directory.write("\(name).json", #"{"bus": {"name": "\#(name)"}, "plugins": [{"name": "tick", "kind": "timer", "interval": 60}]}"#)
        let bus = try SwitchyardProcess(["run", path], directory: directory.url)
        #expect(await bus.wait { $0.stderr.contains("ready:") }, "\(name) did not start: \(bus.stderr)")
        return bus
    }

    private func client(_ arguments: [String], in directory: URL, environment: [String: String] = [:]) async throws -> SwitchyardProcess {
        let client = try SwitchyardProcess(arguments, directory: directory, environment: environment)
        _ = await client.exitStatus()
        return client
    }

    /// Two buses get two directories; no flag names the only one, or lists them when there are several.
    @Test func clientsFindTheirBus() async throws {
        let directory = try TemporaryDirectory()
        let alpha = try await start("alpha", in: directory)
        let only = try await client(["send", "note/one"], in: directory.url)
        #expect(await only.exitStatus() == 0, "\(only.stderr)")
        let beta = try await start("beta", in: directory)
        for name in ["alpha", "beta"] {
            #expect(FileManager.default.fileExists(atPath: directory.url.appendingPathComponent(".switchyard/\(name)/control.sock").path))
        }

        let ambiguous = try await client(["state"], in: directory.url)
        #expect(await ambiguous.exitStatus() == 1)
        #expect(ambiguous.stderr.contains("--bus alpha") && ambiguous.stderr.contains("--bus beta"), "\(ambiguous.stderr)")

        let byName = try await client(["stats", "--json", "--bus", "beta"], in: directory.url)
        #expect(await byName.exitStatus() == 0)
        #expect(byName.stdout.contains(#""name":"beta""#), "\(byName.stdout)")

        let unknown = try await client(["state", "--bus", "gamma"], in: directory.url)
        #expect(await unknown.exitStatus() == 1)
        #expect(unknown.stderr.contains(#"no bus named "gamma""#) && unknown.stderr.contains("alpha, beta"), "\(unknown.stderr)")

        // From another directory: SWITCHYARD_DATA or --data-dir.
        let elsewhere = try TemporaryDirectory()
        let alphaData = directory.url.appendingPathComponent(".switchyard/alpha").path
        let fromEnvironment = try await client(["stats", "--json"], in: elsewhere.url, environment: ["SWITCHYARD_DATA": alphaData])
        #expect(await fromEnvironment.exitStatus() == 0)
        #expect(fromEnvironment.stdout.contains(#""name":"alpha""#), "\(fromEnvironment.stderr)")
        let fromFlag = try await client(["stats", "--json", "--data-dir", alphaData], in: elsewhere.url)
        #expect(fromFlag.stdout.contains(#""name":"alpha""#), "\(fromFlag.stderr)")
        let nothing = try await client(["state"], in: elsewhere.url)
        #expect(await nothing.exitStatus() == 1)
        #expect(nothing.stderr.contains("no bus found"), "\(nothing.stderr)")
        let twoFlags = try await client(["state", "--bus", "alpha", "--data-dir", alphaData], in: elsewhere.url)
        #expect(await twoFlags.exitStatus() == 2)

        // Each journal holds its own bus's actions only.
        alpha.signal(SIGTERM)
        beta.signal(SIGTERM)
        #expect(await alpha.exitStatus() == 0)
        #expect(await beta.exitStatus() == 0)
        let alphaJournal = try await client(["journal", "show", "--bus", "alpha"], in: directory.url)
        let betaJournal = try await client(["journal", "show", "--bus", "beta"], in: directory.url)
        #expect(alphaJournal.stdout.contains("note/one"))
        #expect(!betaJournal.stdout.contains("note/one"))
        #expect(betaJournal.stdout.contains("bus/started"))
    }

    /// A journal written with other slices is refused with a clear message; `--accept-slice-changes` restores it.
    @Test func journalWithOtherSlicesIsRefused() async throws {
        let directory = try TemporaryDirectory()
        func config(_ plugin: String) -> String {
            #"{"bus": {"name": "same", "dataDirectory": "data"}, "plugins": [{"name": "\#(plugin)", "kind": "network-fetch", "on": "trigger/never", "request": {"url": "http://127.0.0.1:9/"}}]}"#
        }
        let first = try directory.write("first.json", config("fetch"))
        let bus = try SwitchyardProcess(["run", first], directory: directory.url)
        #expect(await bus.wait { $0.stderr.contains("ready:") })
        bus.signal(SIGTERM)
        #expect(await bus.exitStatus() == 0)

        let second = try directory.write("second.json", config("places"))
        let refused = try SwitchyardProcess(["run", second], directory: directory.url)
        #expect(await refused.exitStatus() == 1)
        #expect(refused.stderr.contains("written by a bus with the slices fetch; this bus has places"), "\(refused.stderr)")
        #expect(refused.stderr.contains("--accept-slice-changes"))

        let accepted = try SwitchyardProcess(["run", second, "--accept-slice-changes"], directory: directory.url)
        #expect(await accepted.wait { $0.stderr.contains("ready:") }, "\(accepted.stderr)")
        accepted.signal(SIGTERM)
        #expect(await accepted.exitStatus() == 0)
        let again = try SwitchyardProcess(["run", second], directory: directory.url)
        #expect(await again.wait { $0.stderr.contains("ready:") }, "\(again.stderr)")
        again.signal(SIGTERM)
        #expect(await again.exitStatus() == 0)
    }
}
