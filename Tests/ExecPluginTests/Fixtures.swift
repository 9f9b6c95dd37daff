import Foundation
import Glibc
import Testing

@testable import ExecPlugin

/// The Python scripts in `Tests/Fixtures/exec` and checks on what a child left behind.
enum Fixtures {
    static let python = "/usr/bin/python3"

    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("Fixtures/exec")
        .path

    /// Whether the fixtures can run; when `CI` is set they run regardless, and fail without it.
    static let available = access(python, X_OK) == 0 || ProcessInfo.processInfo.environment["CI"] != nil

    /// The trait for suites that start fixtures.
    static let requirement = Testing.ConditionTrait.enabled(
        if: available,
        "needs /usr/bin/python3 (Debian package python3)"
    )

    static func path(_ script: String) -> String {
        directory + "/" + script
    }

    /// A command running `script` with `arguments` under `python3 -u`, with PATH only.
    static func command(_ script: String, _ arguments: String...) -> ChildCommand {
        ChildCommand(
            executable: python,
            arguments: ["-u", path(script)] + arguments,
            environment: ["PATH": "/usr/bin:/bin"]
        )
    }

    /// The inodes of every pipe open in this process.
    static func openPipeInodes() -> Set<UInt64> {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        var inodes = Set<UInt64>()
        for entry in entries {
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + entry),
                target.hasPrefix("pipe:["), let inode = UInt64(target.dropFirst(6).dropLast())
            else { continue }
            inodes.insert(inode)
        }
        return inodes
    }

    /// Whether `pid` is still a child of this process waiting to be reaped or running.
    static func isOurChild(_ pid: pid_t) -> Bool {
        var status: Int32 = 0
        return waitpid(pid, &status, WNOHANG) != -1 || errno != ECHILD
    }

    /// Whether `pid` is gone, a zombie, or has SIGKILL pending (it cannot run again).
    static func isDeadOrDying(_ pid: pid_t) -> Bool {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return true }
        var fields: [String: String] = [:]
        for line in status.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2 {
                fields[String(parts[0])] = parts[1].trimmingCharacters(in: .whitespaces)
            }
        }
        if let state = fields["State"], state.hasPrefix("Z") || state.hasPrefix("X") { return true }
        let killBit: UInt64 = 1 << (UInt64(SIGKILL) - 1)
        return ["SigPnd", "ShdPnd"].contains { UInt64(fields[$0] ?? "", radix: 16).map { $0 & killBit != 0 } ?? false }
    }
}

extension ChildConnection {
    /// Events until the exit event (included).
    func eventsUntilExit() async -> [ChildEvent] {
        var events: [ChildEvent] = []
        while let event = await next() {
            events.append(event)
        }
        return events
    }

    /// The stdout lines until `predicate` accepts one (included), as text.
    func outputLines(until predicate: (String) -> Bool) async -> [String] {
        var lines: [String] = []
        while let event = await next() {
            guard case .output(let bytes) = event else { continue }
            let line = String(decoding: bytes, as: UTF8.self)
            lines.append(line)
            if predicate(line) { break }
        }
        return lines
    }
}
