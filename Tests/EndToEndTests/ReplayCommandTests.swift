import Foundation
import SwitchyardTestSupport
import Testing

/// `switchyard replay` and `journal diff|export|import` with the real executable, on a session
/// recorded from a real gpsd playing a receiver capture.
@Suite(.serialized, .enabled(if: GPSDProcess.testsEnabled, "\(GPSDProcess.missingMessage)"))
struct ReplayCommandTests {
    /// Runs `switchyard ARGUMENTS` in `directory`.
    private func switchyard(_ arguments: [String], in directory: TemporaryDirectory) async throws -> (status: Int32, stdout: String, stderr: String) {
        let process = try SwitchyardProcess(arguments, directory: directory.url)
        let status = await process.exitStatus()
        return (status, process.stdout, process.stderr)
    }

    /// The JSON objects `journal show` prints for the data directory `path`.
    private func journal(_ path: String, in directory: TemporaryDirectory) async throws -> [[String: Any]] {
        let shown = try await switchyard(["journal", "show", "--data-dir", path], in: directory)
        #expect(shown.status == 0, "\(shown.stderr)")
        return shown.stdout.split(separator: "\n").map { object(String($0)) }
    }

    /// The state in the newest snapshot of the data directory `path`: a bus writes one when it stops.
    static func finalState(_ path: String) throws -> NSDictionary {
        let journal = path + "/journal/"
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: journal).filter { $0.hasPrefix("snapshot-") }.max())
        let text = try String(contentsOfFile: journal + name, encoding: .utf8)
        let line = try #require(text.split(separator: "\n").first)
        return try #require(object(String(line.dropFirst(9)))["state"] as? NSDictionary)
    }

    /// Records gps/fix and location/changed from gpsfake playing a capture through gpsd.
    private func record() async throws -> RunningBus {
        let gpsd = try await GPSDProcess.gpsfakeWithDevice(capture: SwitchyardProcess.packageRoot.path + "/Tests/Fixtures/gpsd-logs/bu353s4.log",
                                                           cycle: 0.05, once: true)
        defer { gpsd.stop() }
        let bus = try await RunningBus.start(bus: #"{"name": "recorder"}"#, plugins: """
            [{"name": "gps", "kind": "gpsd", "host": "127.0.0.1", "port": \(gpsd.port)},
             {"name": "location", "kind": "location-emitter", "source": {"plugin": "gps"}, "distanceFilter": 0}]
            """)
        try await bus.play(gpsd)
        let recorded = try await eventually(interval: .milliseconds(200)) {
            let shown = try await bus.client(["journal", "show", "location/changed"])
            return shown.stdout.split(separator: "\n").count >= 5
        }
        #expect(recorded, "no fixes recorded; gpsd: \(gpsd.log)")
        #expect(await bus.stop() == 0)
        return bus
    }

    /// A recorded gpsd session replayed at ×50 through the same configuration with effects off
    /// ends in the recorded state; the same replay with effects on through a changed
    /// configuration lets the new plugin answer the replayed fixes; journals that differ in one
    /// action are told apart at that action.
    @Test func recordReplayAndCompare() async throws {
        let bus = try await record()
        let directory = bus.directory
        let recording = try await journal(bus.dataPath, in: directory)
        let fixes = recording.filter { $0["type"] as? String == "gps/fix" }
        #expect(fixes.count >= 5)

        // ×50 through the same configuration, reducers only.
        let started = ContinuousClock.now
        let replayed = try await switchyard(["replay", bus.dataPath, "--config", bus.configPath, "--speed", "50", "--data-dir", "replay-off"], in: directory)
        let elapsed = ContinuousClock.now - started
        #expect(replayed.status == 0, "\(replayed.stderr)")
        #expect(replayed.stdout.contains("replayed \(recording.count) of \(recording.count) actions"), "\(replayed.stdout)")
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let times = recording.compactMap { ($0["time"] as? String).flatMap(formatter.date(from:)) }
        let span = try #require(times.last).timeIntervalSince(try #require(times.first))
        #expect(elapsed >= .milliseconds(Int(span * 1000 / 50)), "a ×50 replay of \(span) s cannot end sooner than \(span / 50) s")
        let replayPath = directory.url.appendingPathComponent("replay-off").path
        #expect(try Self.finalState(replayPath) == Self.finalState(bus.dataPath))
        let copy = try await journal(replayPath, in: directory)
        #expect(copy.map { $0["type"] as? String } == recording.map { $0["type"] as? String })
        #expect(copy.map { $0["time"] as? String } == recording.map { $0["time"] as? String })
        let diff = try await switchyard(["journal", "diff", bus.dataPath, "replay-off", "--config", bus.configPath], in: directory)
        #expect(diff.status == 0, "\(diff.stdout)\(diff.stderr)")
        #expect(diff.stdout.hasPrefix("same: \(recording.count) actions, and the states after each"))

        // The fixes only, through a configuration with a new plugin, which reacts.
        let changed = try directory.write("changed.json", """
            {"bus": {"name": "changed", "dataDirectory": "changed-data"},
             "plugins": [{"name": "nearby", "kind": "location-emitter", "source": {"plugin": "gps"}, "distanceFilter": 0}]}
            """)
        let reacting = try await switchyard(["replay", bus.dataPath, "--config", changed, "--types", "gps/*", "--as-fast-as-possible",
                                             "--effects", "on", "--data-dir", "replay-on"], in: directory)
        #expect(reacting.status == 0, "\(reacting.stderr)")
        let answered = try await journal(directory.url.appendingPathComponent("replay-on").path, in: directory)
        let replayedFixes = Dictionary(uniqueKeysWithValues: answered.filter { $0["type"] as? String == "gps/fix" }.compactMap { action in
            (action["id"] as? Int).map { ($0, action) }
        })
        #expect(replayedFixes.count == fixes.count)
        #expect(replayedFixes.values.allSatisfy { $0["source"] as? String == "gps" })
        let outputs = answered.filter { $0["type"] as? String == "nearby/changed" }
        #expect(outputs.count >= 5)
        for output in outputs {
            #expect(output["source"] as? String == "nearby")
            let cause = try #require(output["cause"] as? Int)
            #expect(replayedFixes[cause] != nil, "nearby/changed \(output["id"] ?? "?") is caused by \(cause), not a replayed fix")
        }

        // Two journals that differ in one action.
        let exported = try await switchyard(["journal", "export", "--data-dir", bus.dataPath, "-o", "recording.jsonl"], in: directory)
        #expect(exported.status == 0, "\(exported.stderr)")
        var lines = try String(contentsOf: directory.url.appendingPathComponent("recording.jsonl"), encoding: .utf8)
            .split(separator: "\n").map(String.init)
        let index = try #require(lines.firstIndex { $0.contains(#""type":"location/changed""#) })
        let original = try #require(object(lines[index])["payload"] as? [String: Any])
        let latitude = try #require(original["latitude"] as? Double)
        lines[index] = lines[index].replacingOccurrences(of: #""latitude":\#(latitude)"#, with: #""latitude":\#(latitude + 1)"#)
        #expect(lines[index].contains("\(latitude + 1)"))
        _ = try directory.write("changed.jsonl", lines.joined(separator: "\n") + "\n")
        let differ = try await switchyard(["journal", "diff", "recording.jsonl", "changed.jsonl", "--config", bus.configPath], in: directory)
        #expect(differ.status == 1, "\(differ.stdout)\(differ.stderr)")
        #expect(differ.stdout.contains("differ at action \(index + 1): A #\(index + 1) location/changed"), "\(differ.stdout)")
        #expect(differ.stdout.contains("  payload.latitude: "), "\(differ.stdout)")
        #expect(differ.stdout.contains("the states after them differ:\n  state.location."), "\(differ.stdout)")
    }
}

/// Every bad input to replay, diff, export and import: a clear error, the documented exit
/// status, and nothing written.
struct ReplayInputTests {
    private let line = #"{"cause":null,"id":ID,"payload":{"n":ID},"source":"control","time":"2026-11-22T09:30:0ID.000Z","type":"note/n"}"#

    /// A temporary directory with `config.json` (no plugins, data in `data`) and `data` holding
    /// a journal of three actions, imported from an exported file.
    private func fixture() async throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        _ = try directory.write("config.json", #"{"bus": {"name": "inputs", "dataDirectory": "data"}, "plugins": []}"#)
        _ = try directory.write("three.jsonl", (1...3).map { line.replacingOccurrences(of: "ID", with: "\($0)") }.joined(separator: "\n") + "\n")
        let imported = try await run(["journal", "import", "three.jsonl", "--data-dir", "data"], in: directory)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("imported 3 actions (recorded ids 1-3) as ids 1-3"))
        return directory
    }

    /// The JSON objects `journal show` prints for the data directory `path`.
    private func journal(_ path: String, in directory: TemporaryDirectory) async throws -> [[String: Any]] {
        let shown = try await run(["journal", "show", "--data-dir", path], in: directory)
        #expect(shown.status == 0, "\(shown.stderr)")
        return shown.stdout.split(separator: "\n").map { object(String($0)) }
    }

    private func run(_ arguments: [String], in directory: TemporaryDirectory) async throws -> (status: Int32, stdout: String, stderr: String) {
        let process = try SwitchyardProcess(arguments, directory: directory.url)
        let status = await process.exitStatus()
        return (status, process.stdout, process.stderr)
    }

    /// Bad command lines and recordings are refused with their reason and status.
    @Test(arguments: [
        (["replay", "missing", "--config", "config.json"], 1, "cannot read the recording missing: No such file or directory"),
        (["replay", "data"], 2, "replay needs --config CONFIG"),
        (["replay", "data", "--config", "config.json", "--from", "last week"], 2, "--from expects an action id or a time"),
        (["replay", "data", "--config", "config.json", "--from", "3", "--to", "2"], 2, "the range is empty"),
        (["replay", "data", "--config", "config.json", "--speed", "0"], 2, "--speed expects a positive number"),
        (["replay", "data", "--config", "config.json", "--speed", "fast"], 2, "--speed expects a positive number"),
        (["replay", "data", "--config", "config.json", "--speed", "2", "--as-fast-as-possible"], 2, "not both"),
        (["replay", "data", "--config", "config.json", "--effects", "maybe"], 2, "--effects expects on or off"),
        (["replay", "data", "--config", "config.json", "--types", "Bad"], 2, "is not a type pattern"),
        (["replay", "data", "--config", "config.json", "--from", "9"], 1, "nothing to replay"),
        (["replay", "data", "--config", "config.json", "--data-dir", "data"], 1, "already holds a journal"),
        (["replay", "data", "--config", "missing.json"], 78, "missing.json"),
        (["journal", "diff", "data", "missing"], 2, "cannot read the recording missing"),
        (["journal", "export", "--data-dir", "nothing-here"], 1, "there is no journal"),
        (["journal", "export", "--data-dir", "data", "--format", "kml"], 2, "--format expects jsonl, gpx or geojson"),
        (["journal", "import", "missing.jsonl", "--data-dir", "other"], 1, "cannot read missing.jsonl"),
    ])
    func refused(arguments: [String], status: Int32, message: String) async throws {
        let directory = try await fixture()
        let result = try await run(arguments, in: directory)
        #expect(result.status == status, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    /// A damaged journal is found through the same checks as `journal verify`: replay, diff and
    /// export name the file, line and byte and write nothing.
    @Test func damagedJournal() async throws {
        let directory = try await fixture()
        let journal = directory.url.appendingPathComponent("data/journal")
        let segment = try #require(try FileManager.default.contentsOfDirectory(atPath: journal.path).first { $0.hasPrefix("segment-") })
        let path = journal.appendingPathComponent(segment).path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        try text.replacingOccurrences(of: #"{"n":2}"#, with: #"{"n":7}"#).write(toFile: path, atomically: false, encoding: .utf8)
        for (arguments, status) in [(["replay", "data", "--config", "config.json", "--data-dir", "replayed"], Int32(1)),
                                    (["journal", "diff", "data", "three.jsonl"], 2), (["journal", "export", "--data-dir", "data", "-o", "out.jsonl"], 1)] {
            let result = try await run(arguments, in: directory)
            #expect(result.status == status, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("journal is corrupt: ") && result.stderr.contains("\(segment): line 3 (byte "), "\(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("replayed").path))
        #expect(!FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("out.jsonl").path))
    }

    /// A bad line stops an import before anything is written, naming the line; a data directory
    /// a running bus holds is refused.
    @Test func importRefusals() async throws {
        let directory = try await fixture()
        let good = line.replacingOccurrences(of: "ID", with: "4")
        _ = try directory.write("bad.jsonl", good + "\n" + #"{"id":5,"type":"note/n"}"# + "\n")
        let bad = try await run(["journal", "import", "bad.jsonl", "--data-dir", "data"], in: directory)
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("bad.jsonl: line 2 (byte \(good.utf8.count + 1)): the action has no \"time\""), "\(bad.stderr)")
        let shown = try await run(["journal", "show", "--data-dir", "data"], in: directory)
        #expect(shown.stdout.split(separator: "\n").count == 3)

        let bus = try await RunningBus.start(in: directory)
        let held = try await run(["journal", "import", "three.jsonl", "--data-dir", bus.dataPath], in: directory)
        #expect(held.status == 1)
        #expect(held.stderr.contains("is in use by another bus"), "\(held.stderr)")
        #expect(await bus.stop() == 0)
    }

    /// A range by time and type goes out as a file, replays from that file and compares equal
    /// to it; by id it selects the same actions.
    @Test func exportARangeAndReplayTheFile() async throws {
        let directory = try await fixture()
        let byTime = try await run(["journal", "export", "--data-dir", "data", "--from", "2026-11-22T09:30:02Z",
                                    "--to", "2026-11-22T09:30:03Z", "--types", "note/*", "-o", "range.jsonl"], in: directory)
        #expect(byTime.status == 0, "\(byTime.stderr)")
        let byID = try await run(["journal", "export", "--data-dir", "data", "--from", "2", "--to", "3"], in: directory)
        let file = try String(contentsOf: directory.url.appendingPathComponent("range.jsonl"), encoding: .utf8)
        #expect(file == byID.stdout)
        #expect(file.split(separator: "\n").map { object(String($0))["id"] as? Int } == [2, 3])
        let replayed = try await run(["replay", "range.jsonl", "--config", "config.json", "--as-fast-as-possible", "--data-dir", "from-file"], in: directory)
        #expect(replayed.status == 0, "\(replayed.stderr)")
        #expect(replayed.stdout.contains("replayed 2 of 2 actions as ids 1-2 into from-file"), "\(replayed.stdout)")
        let diff = try await run(["journal", "diff", "range.jsonl", "from-file", "--config", "config.json"], in: directory)
        #expect(diff.status == 0, "\(diff.stdout)\(diff.stderr)")
        let other = try await run(["journal", "diff", "three.jsonl", "from-file"], in: directory)
        #expect(other.status == 1, "\(other.stdout)")
        #expect(other.stdout.contains("differ at action 1"), "\(other.stdout)")
    }

    /// Step by step over the control socket: each `step` is answered once its action is reduced, two at once in order; the end of a stdin that is no terminal does not stop it; the last step ends the replay.
    @Test func stepOverControlSocket() async throws {
        let directory = try await fixture()
        // stdin is /dev/null for the child: its end only ends stepping by lines.
        let process = try SwitchyardProcess(["replay", "data", "--config", "config.json", "--step", "--data-dir", "stepped"], directory: directory.url)
        #expect(await process.wait(until: { $0.stderr.contains("step: #1 note/n from control") }), "\(process.stderr)")
        let socket = directory.url.appendingPathComponent("stepped/control.sock").path
        let client = try await onThread { try ControlTestClient(path: socket) }
        let first = object(try await onThread { try client.request(#"{"op":"step"}"#) })
        #expect(first["ok"] as? Bool == true && first["recorded"] as? Int == 1 && first["id"] as? Int == 1 && first["type"] as? String == "note/n", "\(first)")
        let replies = try await onThread { () throws -> [String] in
            try client.write("{\"op\":\"step\"}\n{\"op\":\"step\"}\n")
            return try [client.readLine(), client.readLine()].compactMap { $0 }
        }
        #expect(replies.map { object($0)["recorded"] as? Int } == [2, 3], "\(replies)")
        #expect(await process.exitStatus() == 0, "\(process.stderr)")
        #expect(process.stdout.contains("replayed 3 of 3 actions as ids 1-3"), "\(process.stdout)")
        let copy = try await journal("stepped", in: directory)
        #expect(copy.compactMap { $0["type"] as? String } == ["note/n", "note/n", "note/n"])
    }

    /// Step by step at a terminal (stdin a pseudo-terminal): nothing is replayed before the
    /// first Enter, each Enter replays exactly one action and no more, and Ctrl-D stops the
    /// replay after the actions let through.
    @Test func stepByEnterAtATerminal() async throws {
        let directory = try await fixture()
        let terminal = try PseudoTerminal()
        let process = try SwitchyardProcess(["replay", "data", "--config", "config.json", "--step", "--data-dir", "stepped"],
                                            directory: directory.url, input: terminal.terminal)
        #expect(await process.wait(until: { $0.stderr.contains("step: #1 note/n from control") }), "\(process.stderr)")
        let socket = directory.url.appendingPathComponent("stepped/control.sock").path
        let client = try await onThread { try ControlTestClient(path: socket) }
        func reduced() async throws -> Int? {
            let reply = object(try await onThread { try client.request(#"{"op":"stats"}"#) })
            return (reply["stats"] as? [String: Any])?["actions"] as? Int
        }
        // Waiting for the first Enter: the bus has reduced nothing.
        #expect(try await reduced() == 0)
        for step in 1...2 {
            terminal.type("\n")
            #expect(await process.wait(until: { $0.stderr.contains("step: #\(step + 1) note/n") }), "\(process.stderr)")
            // The next action waits for the next Enter: exactly one more was reduced.
            #expect(try await reduced() == step)
            #expect(!process.stderr.contains("step: #\(step + 2) "), "\(process.stderr)")
        }
        terminal.type("\u{4}")
        #expect(await process.exitStatus() == 0, "\(process.stderr)")
        #expect(process.stdout.contains("replayed 2 of 3 actions as ids 1-2"), "\(process.stdout)")
        let copy = try await journal("stepped", in: directory)
        #expect(copy.compactMap { $0["type"] as? String } == ["note/n", "note/n"])
    }

    /// A `step` request to a bus that is not a step-by-step replay is refused with `not-stepping`, and the connection stays open.
    @Test func stepOnAnOrdinaryBusIsRefused() async throws {
        let bus = try await RunningBus.start()
        let client = try await bus.connect()
        let reply = object(try await onThread { try client.request(#"{"op":"step"}"#) })
        #expect(reply["ok"] as? Bool == false && (reply["error"] as? [String: Any])?["code"] as? String == "not-stepping", "\(reply)")
        #expect(object(try await onThread { try client.request(#"{"op":"stats"}"#) })["ok"] as? Bool == true)
        #expect(await bus.stop() == 0)
    }

    /// `--from` in the middle of a journal starts from the newest snapshot before it and reduces the recorded actions between without effects, so the replay ends in the recorded state, not one built from the replayed actions alone.
    @Test func fromStartsAtTheSnapshotBefore() async throws {
        let directory = try TemporaryDirectory()
        func lines(_ actions: [(String, String)]) -> String {
            actions.enumerated().map { index, action in
                #"{"cause":null,"id":\#(index + 1),"payload":\#(action.1),"source":"location","time":"2026-11-22T09:30:0\#(index).000Z","type":"\#(action.0)"}"#
            }.joined(separator: "\n") + "\n"
        }
        _ = try directory.write("before.jsonl", lines([("other/changed", #"{"latitude":7}"#), ("location/changed", #"{"latitude":1}"#)]))
        _ = try directory.write("after.jsonl", lines([("location/availability", #"{"availability":"between"}"#),
                                                     ("location/changed", #"{"latitude":20}"#), ("location/changed", #"{"latitude":30}"#)]))
        let imported = try await run(["journal", "import", "before.jsonl", "--data-dir", "data"], in: directory)
        #expect(imported.status == 0, "\(imported.stderr)")
        // A bus run on the journal writes a snapshot when it stops.
        let bus = try await RunningBus.start(plugins: """
            [{"name": "location", "kind": "location-emitter", "source": {"plugin": "gps"}},
             {"name": "other", "kind": "location-emitter", "source": {"plugin": "gps"}}]
            """, in: directory)
        #expect(await bus.stop() == 0)
        let later = try await run(["journal", "import", "after.jsonl", "--data-dir", "data"], in: directory)
        #expect(later.status == 0, "\(later.stderr)")
        let recorded = try await journal("data", in: directory).compactMap { $0["id"] as? Int }
        let from = try #require(recorded.suffix(2).first)
        let replayed = try await run(["replay", "data", "--config", bus.configPath, "--from", "\(from)", "--as-fast-as-possible", "--data-dir", "from-middle"], in: directory)
        #expect(replayed.status == 0, "\(replayed.stderr)")
        #expect(replayed.stderr.contains("starting from the snapshot after action \(from - 2)"), "\(replayed.stderr)")
        #expect(replayed.stderr.contains("and 1 recorded action before --from, reduced without effects"), "\(replayed.stderr)")
        #expect(replayed.stdout.contains("replayed 2 of 2 actions as ids \(from)-\(from + 1)"), "\(replayed.stdout)")
        let state = try ReplayCommandTests.finalState(directory.url.appendingPathComponent("from-middle").path)
        let location = state["location"] as? NSDictionary
        #expect(location?["availability"] as? String == "between", "\(state)")
        #expect((location?["location"] as? NSDictionary)?["latitude"] as? Int == 30, "\(state)")
        #expect(((state["other"] as? NSDictionary)?["location"] as? NSDictionary)?["latitude"] as? Int == 7, "\(state)")
        let verified = try await run(["journal", "verify", "--data-dir", "from-middle"], in: directory)
        #expect(verified.status == 0, "\(verified.stdout)\(verified.stderr)")
    }
}
