import Foundation
import SwitchyardTestSupport
import Testing

/// The bus maps the libraries it needs and no more: FoundationEssentials, not Foundation, and
/// libcurl only when it runs a network-fetch plugin; a bus that cannot load libcurl fails each
/// request saying why instead of failing to start.
@Suite(.serialized)
struct MappedLibraryTests {
    /// The libraries the bus process has mapped, by file name.
    private func mappedLibraries(of bus: RunningBus) throws -> Set<String> {
        // Read to the end: procfs reports a size of 0, and a read sized by it stops at a page.
        let handle = try #require(FileHandle(forReadingAtPath: "/proc/\(bus.process.pid)/maps"))
        let maps = String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self)
        let names = maps.split(separator: "\n").compactMap { line -> String? in
            guard let slash = line.firstIndex(of: "/") else { return nil }
            return line[slash...].split(separator: "/").last.map(String.init)
        }
        #expect(names.contains("libswiftCore.so"), "the maps were read whole")
        return Set(names)
    }

    /// A fetch plugin for `url` and a logger writing every action to `log`.
    private func fetcher(url: String, log: String) -> String {
        """
        [{"name": "fetch", "kind": "network-fetch", "on": "go/fetch", "retry": {"attempts": 1}, "request": {"url": "\(url)"}},
         {"name": "log", "kind": "logger", "format": "json", "to": "\(log)"}]
        """
    }

    /// A bus without network-fetch maps FoundationEssentials only, neither Foundation (and the
    /// ICU behind it) nor libcurl; one with it maps libcurl and fetches through it.
    @Test func onlyAFetchingBusMapsLibcurl() async throws {
        let quiet = try await RunningBus.start(plugins: #"[{"name": "clock", "kind": "timer", "interval": 0.1}]"#)
        let quietLibraries = try mappedLibraries(of: quiet)
        let unwanted = ["libcurl", "libFoundation.so", "libFoundationNetworking", "libFoundationInternationalization", "lib_FoundationICU"]
        #expect(!quietLibraries.contains { name in unwanted.contains { name.hasPrefix($0) } }, "\(quietLibraries.sorted())")
        #expect(quietLibraries.contains("libFoundationEssentials.so"))
        #expect(await quiet.stop() == 0)

        let server = try await HTTPScriptServer.start(routes: #"{"/places": [{"json": {"name": "Café"}}]}"#)
        let directory = try TemporaryDirectory()
        let log = directory.url.appendingPathComponent("actions.jsonl").path
        let bus = try await RunningBus.start(plugins: fetcher(url: server.url("/places"), log: log), in: directory)
        #expect(try await bus.client(["send", "go/fetch"]).status == 0)
        let logged = { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }
        #expect(await eventually(interval: .milliseconds(50)) { logged().contains(#""type":"fetch/loaded""#) }, "\(logged())\n\(bus.process.stderr)")
        #expect(logged().contains(#""name":"Café""#))
        let libraries = try mappedLibraries(of: bus)
        #expect(libraries.contains { $0.hasPrefix("libcurl") }, "\(libraries.sorted())")
        #expect(await bus.stop() == 0, "\(bus.process.stderr)")
    }

    /// Without a libcurl to load, the bus still starts: the plugin logs why once, and each
    /// request fails with kind `network` saying so.
    @Test func missingLibcurlFailsEachRequestSayingWhy() async throws {
        let directory = try TemporaryDirectory()
        let log = directory.url.appendingPathComponent("actions.jsonl").path
        let bus = try await RunningBus.start(
            plugins: fetcher(url: "http://127.0.0.1:9/x", log: log), in: directory,
            environment: ["SWITCHYARD_LIBCURL": "/nonexistent/libcurl.so.4"])
        let logged = { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }
        for expected in 1...2 {
            #expect(try await bus.client(["send", "go/fetch"]).status == 0)
            let failures = { logged().split(separator: "\n").filter { $0.contains(#""type":"fetch/failed""#) } }
            #expect(await eventually(interval: .milliseconds(50)) { failures().count == expected }, "\(logged())\n\(bus.process.stderr)")
            #expect(failures().last?.contains(#""kind":"network""#) == true)
            #expect(failures().last?.contains("SWITCHYARD_LIBCURL names a library that does not load") == true, "\(failures())")
        }
        let notices = bus.process.stderr.components(separatedBy: "no request can be sent").count - 1
        #expect(notices == 1, "\(bus.process.stderr)")
        #expect(await bus.stop() == 0, "\(bus.process.stderr)")
    }
}
