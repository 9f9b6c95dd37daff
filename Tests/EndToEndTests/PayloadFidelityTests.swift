import Foundation
import SwitchyardTestSupport
import Testing

/// An ordinary `${VAR}` value (a port, a device, a URL without credentials) is plain text: what a
/// user sends that happens to contain it, and what the configuration puts in a payload from it,
/// is journaled byte for byte, and the bus's own status and log lines show it as it is.
@Suite(.serialized)
struct PayloadFidelityTests {
    @Test func ordinaryEnvironmentValuesAreNeverRewritten() async throws {
        let gpsdPort = try unusedLocalPort()
        let natsPort = try unusedLocalPort()
        let credential = "pw-in-url-77"
        let environment = [
            "GPSD_PORT": "\(gpsdPort)", "SY_PORT": "29472", "DEVICE": "/dev/ttyUSB0",
            "NATS_URL": "nats://alice:\(credential)@127.0.0.1:\(natsPort)", "TOKEN": "tok-configured-42",
        ]
        let directory = try TemporaryDirectory()
        let log = directory.url.appendingPathComponent("actions.jsonl").path
        let bus = try await RunningBus.start(plugins: """
            [{"name": "tick", "kind": "timer", "interval": 0.05, "count": 1, "type": "tick/fired",
              "payload": {"port": "${SY_PORT}", "device": "${DEVICE}", "token": "${secret:TOKEN}"}},
             {"name": "gps", "kind": "gpsd", "host": "127.0.0.1", "port": "${GPSD_PORT}"},
             {"name": "fleet", "kind": "nats", "url": "${NATS_URL}", "publish": "note/*",
              "reconnectDelay": 0.05, "maxReconnectDelay": 0.2},
             {"name": "log", "kind": "logger", "format": "json", "to": "\(log)"}]
            """, in: directory, environment: environment)
        let sent = #"{"text":"ticket \#(gpsdPort) fixed on /dev/ttyUSB0, see http://example.org/t/29472"}"#
        let send = try await bus.client(["send", "note/added", sent])
        #expect(send.status == 0, "\(send.stderr)")
        let logged = { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }
        let status = #""endpoint":"127.0.0.1:\#(gpsdPort)""#
        await eventually(timeout: .seconds(60), interval: .milliseconds(50)) {
            logged().contains("tick/fired") && logged().contains(status) && logged().contains("note/added")
        }
        #expect(await bus.stop() == 0, "\(bus.process.stderr)")

        let journal = Self.journalText(in: bus.dataPath)
        #expect(journal.contains(#""payload":\#(sent)"#), "\(journal)")
        // The configuration put these values there on purpose, the credential included.
        #expect(journal.contains(#""port":"29472""#) && journal.contains(#""device":"/dev/ttyUSB0""#))
        #expect(journal.contains(#""token":"tok-configured-42""#))
        #expect(journal.contains(status))
        #expect(!journal.contains("${"), "\(journal)")
        // The bus's log names the NATS server as configured, with only its credential hidden.
        let busLog = bus.process.stderr
        #expect(busLog.contains("127.0.0.1:\(natsPort)"), "\(busLog)")
        #expect(!busLog.contains("${NATS_URL}") && !busLog.contains(credential) && !journal.contains(credential))
    }

    /// The text of every file in the data directory's journal, segments and snapshots.
    static func journalText(in dataDirectory: String) -> String {
        let files = FileManager.default.enumerator(atPath: dataDirectory)?.compactMap { $0 as? String } ?? []
        return files.sorted().compactMap { name -> String? in
            let path = dataDirectory + "/" + name
            guard !name.hasSuffix(".sock"), let data = FileManager.default.contents(atPath: path) else { return nil }
            return String(decoding: data, as: UTF8.self)
        }.joined(separator: "\n")
    }
}
