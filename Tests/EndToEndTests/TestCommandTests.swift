import Foundation
import SwitchyardTestSupport
import Testing

/// `Scripts/test --filter X` runs only the tests X matches, each target in a process of its own.
@Suite(.serialized)
struct TestCommandTests {
    static let script = SwitchyardProcess.packageRoot.appendingPathComponent("Scripts/test").path
    static let bash = ExternalTool(name: "bash", package: "bash")

    /// Runs the test command with `arguments`; `list` stands for `swift test list` when given.
    private func run(_ arguments: [String], list: [String]? = nil) async throws -> (status: Int32, output: String) {
        let directory = try TemporaryDirectory()
        // This test runs inside `swift test`, which holds the build directory's lock.
        var environment = ["SWITCHYARD_SKIP_BUILD": "1", "SWITCHYARD_TEST_IGNORE_LOCK": "1"]
        if let list {
            environment["SWITCHYARD_TEST_LIST"] = try directory.write("list", list.joined(separator: "\n") + "\n")
            environment["SWITCHYARD_TEST_DRY_RUN"] = "1"
        }
        let assignments = environment.map { "\($0.key)=\($0.value)" }
        // Bounded: a nested `swift test` that waits for the outer one's lock would never end.
        let limit = String(Int(TestTimeouts.scaled(.seconds(300)).components.seconds))
        return try await ExternalTool(name: "timeout", package: "coreutils").run([limit, "env"] + assignments + [Self.script] + arguments)
    }

    static let identifiers = ["A.Suite/one()", "A.Other/two()", "B.Suite/one()", "B.Replay/x()", "C.Thing/y()"]

    /// Each target's filter, as the dry run prints it.
    private func filters(_ output: String) -> [String: String] {
        var found: [String: String] = [:]
        for line in output.split(separator: "\n") where line.hasPrefix("would run ") {
            let parts = line.dropFirst("would run ".count).split(separator: "\t", maxSplits: 1)
            guard parts.count == 2 else { continue }
            found[String(parts[0].split(separator: " ")[0])] = String(parts[1])
        }
        return found
    }

    /// The tests each target's filter selects, read as Swift Testing reads `--filter`.
    private func selected(_ output: String) throws -> [String: [String]] {
        try filters(output).mapValues { filter in
            let regex = try Regex(filter)
            return Self.identifiers.filter { $0.contains(regex) }
        }
    }

    /// The user's filters AND the target's; a target without a match is not started.
    @Test(arguments: [
        (["--filter", "Suite/one"], ["A": ["A.Suite/one()"], "B": ["B.Suite/one()"]]),
        (["--filter=^B\\."], ["B": ["B.Suite/one()", "B.Replay/x()"]]),
        (["--filter", "Replay", "--filter", "Other"], ["A": ["A.Other/two()"], "B": ["B.Replay/x()"]]),
        ([], ["A": ["A.Suite/one()", "A.Other/two()"], "B": ["B.Suite/one()", "B.Replay/x()"], "C": ["C.Thing/y()"]]),
    ])
    func filterSelectsWithinTargets(arguments: [String], expected: [String: [String]]) async throws {
        let result = try await run(arguments, list: Self.identifiers)
        #expect(result.status == 0, "\(result.output)")
        #expect(try selected(result.output) == expected, "\(result.output)")
    }

    /// A filter nothing matches is an error, not a green run of nothing.
    @Test func filterWithoutMatchFails() async throws {
        let result = try await run(["--filter", "Nothing"], list: Self.identifiers)
        #expect(result.status == 1)
        #expect(result.output.contains("no test matches Nothing"))
    }

    /// On the built tree, `--filter` with one suite starts only that suite's target and runs
    /// only that suite.
    @Test func filterRunsOneSuiteOfTheBuiltTree() async throws {
        let result = try await run(["--filter", "TimerPluginTests.TimerTests/"])
        #expect(result.status == 0, "\(result.output)")
        let started = result.output.split(separator: "\n").filter { $0.hasPrefix("== ") }
        #expect(started == ["== TimerPluginTests"], "\(result.output)")
        #expect(result.output.contains("Suite TimerTests passed"))
        #expect(!result.output.contains("TimerFireAtStartTests"), "\(result.output)")
    }
}
