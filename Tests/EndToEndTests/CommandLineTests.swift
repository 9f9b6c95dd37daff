import Foundation
import SwitchyardTestSupport
import Testing

/// The command line of the real executable: help, usage errors, completions, and the
/// options of `tail`, `journal show` and `plugins`.
@Suite(.serialized)
struct CommandLineEndToEndTests {
    /// `--help`/`-h` on every command prints its help on stdout with exit 0 — it never opens a
    /// file called `--help`.
    @Test(arguments: [["run", "--help"], ["validate", "--help"], ["tail", "-h"], ["journal", "show", "--help"], ["help", "send"],
                      ["help", "--help"]])
    func helpExitsZero(arguments: [String]) async throws {
        let process = try SwitchyardProcess(arguments)
        #expect(await process.exitStatus() == 0)
        #expect(process.stdout.contains("usage: switchyard \(arguments.filter { !$0.hasPrefix("-") && $0 != "help" }.joined(separator: " "))"))
        #expect(process.stdout.contains("-h, --help"))
        #expect(process.stderr.isEmpty)
    }

    /// `-V`, `--version` and `version` print the version; `help --man` the manual page.
    @Test func versionAndManPage() async throws {
        for spelling in ["-V", "--version", "version"] {
            let process = try SwitchyardProcess([spelling])
            #expect(await process.exitStatus() == 0)
            #expect(process.stdout.hasPrefix("switchyard 0."), "\(spelling): \(process.stdout)")
        }
        let man = try SwitchyardProcess(["help", "--man"])
        #expect(await man.exitStatus() == 0)
        #expect(man.stdout.hasPrefix(".TH SWITCHYARD 1"))
    }

    /// A usage error prints three lines — what is wrong, the usage, where to read more — and exits 2.
    @Test func usageErrorIsShort() async throws {
        let process = try SwitchyardProcess(["tail", "--folow"])
        #expect(await process.exitStatus() == 2)
        let lines = process.stderr.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines.first == "switchyard tail: unknown option --folow")
        #expect(lines.last == "See 'switchyard tail --help'.")
    }

    /// `completions bash` prints a script bash accepts.
    @Test func bashCompletionFromTheExecutable() async throws {
        let process = try SwitchyardProcess(["completions", "bash"])
        #expect(await process.exitStatus() == 0)
        #expect(process.stdout.contains("complete -F _switchyard switchyard"))
        let unknown = try SwitchyardProcess(["completions", "tcsh"])
        #expect(await unknown.exitStatus() == 2)
    }

    /// `plugins KIND --json` prints that kind's settings as JSON; an unknown kind exits 2.
    @Test func pluginsKindAsJSON() async throws {
        let process = try SwitchyardProcess(["plugins", "timer", "--json"])
        #expect(await process.exitStatus() == 0)
        let kinds = try JSONSerialization.jsonObject(with: Data(process.stdout.utf8)) as? [[String: Any]]
        #expect(kinds?.count == 1)
        #expect(kinds?.first?["kind"] as? String == "timer")
        let keys = (kinds?.first?["settings"] as? [[String: Any]])?.compactMap { $0["key"] as? String } ?? []
        #expect(keys.contains("interval"))
        let unknown = try SwitchyardProcess(["plugins", "timr"])
        #expect(await unknown.exitStatus() == 2)
        #expect(unknown.stderr.contains("did you mean \"timer\"?"))
    }

    /// `journal show PATTERN` with `--since`, `--until` and `-n` selects from the journal.
    @Test func journalShowSelects() async throws {
        let bus = try await RunningBus.start()
        for index in 1...6 {
            #expect(try await bus.client(["send", index % 2 == 0 ? "even/number" : "odd/number", "\(index)"]).status == 0)
        }
        #expect(await bus.stop() == 0)
        func show(_ arguments: [String]) async throws -> [Int] {
            let result = try await bus.client(["journal", "show"] + arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            return result.stdout.split(separator: "\n").compactMap { line in
                (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["payload"] as? Int
            }
        }
        #expect(try await show(["even/*"]) == [2, 4, 6])
        #expect(try await show(["*", "-n", "3"]).suffix(2) == [5, 6])
        #expect(try await show(["odd/number", "-n=1"]) == [5])
        let all = try await bus.client(["journal", "show"])
        let ids = all.stdout.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]).flatMap { $0["payload"] as? Int != nil ? $0["id"] as? Int : nil }
        }
        #expect(ids.count == 6)
        #expect(try await show(["--since", "\(ids[2])", "--until=\(ids[3])"]) == [3, 4])
        #expect(try await show(["--since", "1 hour ago", "--until", "+1m"]).count == 6)
        #expect(try await show(["--since", "yesterday"]).count == 6)
        #expect(try await show(["--since", "tomorrow"]).isEmpty)
        let refused = try await bus.client(["journal", "show", "--since", "soon"])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("\"1 hour ago\""))
    }

    /// `journal show` and `tail` take several patterns, and `*/event` for every domain's event;
    /// `tail` sends them to the bus in its watch request.
    @Test func severalPatternsAndAnyDomain() async throws {
        let bus = try await RunningBus.start()
        for type in ["a/changed", "b/changed", "c/other", "d/x"] {
            #expect(try await bus.client(["send", type, "\"\(type)\""]).status == 0)
        }
        func payloads(_ output: String) -> [String] {
            output.split(separator: "\n").compactMap { line in
                (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["payload"] as? String
            }
        }
        let changed = try await bus.client(["journal", "show", "*/changed"])
        #expect(payloads(changed.stdout) == ["a/changed", "b/changed"], "\(changed.stderr)")
        let two = try await bus.client(["journal", "show", "c/*", "d/x"])
        #expect(payloads(two.stdout) == ["c/other", "d/x"], "\(two.stderr)")
        let tail = try SwitchyardProcess(["tail", "*/changed", "d/*", "-n", "5", "--count", "4", "--json", "--config", bus.configPath],
                                         directory: bus.directory.url)
        #expect(await tail.wait { payloads($0.stdout).count >= 3 })
        #expect(try await bus.waitForWatchers(1))
        #expect(try await bus.client(["send", "c/changed", "\"c/changed\""]).status == 0)
        #expect(await tail.exitStatus() == 0)
        #expect(payloads(tail.stdout) == ["a/changed", "b/changed", "d/x", "c/changed"], "\(tail.stderr)")
        #expect(await bus.stop() == 0)
    }

    /// `tail` and `journal show` follow one rule: text on a terminal, JSON lines in a pipe,
    /// `--text` and `--json` whatever stdout is.
    @Test func actionsAreTextOnATerminalAndJSONInAPipe() async throws {
        let bus = try await RunningBus.start()
        #expect(try await bus.client(["send", "shown/one", "1"]).status == 0)
        for command in [["tail", "shown/*", "-n", "1", "--count", "1"], ["journal", "show", "shown/*"]] {
            let terminal = try PseudoTerminal()
            let onTerminal = try SwitchyardProcess(command + ["--config", bus.configPath], directory: bus.directory.url, output: terminal.terminal)
            #expect(await onTerminal.exitStatus() == 0, "\(command): \(onTerminal.stderr)")
            let shown = terminal.readAvailable()
            #expect(shown.contains("#") && shown.contains("shown/one source=control 1"), "\(command) on a terminal: \(shown)")
            let piped = try await bus.client(command)
            #expect(piped.stdout.hasPrefix("{") && piped.stdout.contains(#""type":"shown/one""#), "\(command) piped: \(piped.stdout)")
            let text = try await bus.client(command + ["--text"])
            #expect(text.stdout.contains("shown/one source=control 1"), "\(command) --text: \(text.stdout)")
            let json = try SwitchyardProcess(command + ["--json", "--config", bus.configPath], directory: bus.directory.url, output: terminal.terminal)
            #expect(await json.exitStatus() == 0)
            #expect(terminal.readAvailable().contains(#""type":"shown/one""#), "\(command) --json on a terminal")
            let both = try await bus.client(command + ["--text", "--json"])
            #expect(both.status == 2 && both.stderr.contains("--text and --json exclude each other"))
        }
        #expect(await bus.stop() == 0)
    }

    /// A time without a zone is local time, as `TZ` says (a POSIX zone 13 hours east of UTC
    /// here, which needs no time zone database): a minute before now there shows the actions,
    /// a minute after shows none.
    @Test func localTimesFollowTZ() async throws {
        let bus = try await RunningBus.start()
        for index in 1...3 { #expect(try await bus.client(["send", "local/time", "\(index)"]).status == 0) }
        let now = Date()
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 13 * 3600)
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        func local(_ offset: TimeInterval) -> String { formatter.string(from: now.addingTimeInterval(offset)) }
        func shown(since: String) async throws -> Int {
            let show = try SwitchyardProcess(["journal", "show", "local/*", "--since", since, "--config", bus.configPath],
                                             directory: bus.directory.url, environment: ["TZ": "XYZ-13"])
            #expect(await show.exitStatus() == 0, "--since \(since): \(show.stderr)")
            return show.stdout.split(separator: "\n").count
        }
        #expect(try await shown(since: local(-60)) == 3)
        #expect(try await shown(since: local(60)) == 0)
        #expect(await bus.stop() == 0)
    }

    /// `journal show --follow` prints new actions as they are journaled.
    @Test func journalShowFollows() async throws {
        let bus = try await RunningBus.start()
        let follow = try SwitchyardProcess(["journal", "show", "follow/*", "--follow", "--config", bus.configPath], directory: bus.directory.url)
        #expect(try await bus.client(["send", "follow/one"]).status == 0)
        #expect(await follow.wait { $0.stdout.contains("follow/one") })
        #expect(try await bus.client(["send", "follow/two"]).status == 0)
        #expect(await follow.wait { $0.stdout.contains("follow/two") })
        follow.signal(SIGTERM)
        #expect(await follow.exitStatus() == 0)
        #expect(follow.stdout.split(separator: "\n").count == 2)
        #expect(await bus.stop() == 0)
    }

    /// `tail -n N` starts with the last N journaled matches, `--count` ends it, no gap or duplicate.
    @Test func tailHistoryAndCount() async throws {
        let bus = try await RunningBus.start()
        for index in 1...3 { #expect(try await bus.client(["send", "hist/item", "\(index)"]).status == 0) }
        let tail = try SwitchyardProcess(["tail", "hist/*", "-n", "2", "--count", "3", "--json", "--config", bus.configPath],
                                         directory: bus.directory.url)
        #expect(await tail.wait { $0.stdout.split(separator: "\n").count >= 2 })
        #expect(try await bus.waitForWatchers(1))
        #expect(try await bus.client(["send", "hist/item", "4"]).status == 0)
        #expect(await tail.exitStatus() == 0)
        let payloads = tail.stdout.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["payload"] as? Int
        }
        #expect(payloads == [2, 3, 4])
        #expect(await bus.stop() == 0)
    }
}
