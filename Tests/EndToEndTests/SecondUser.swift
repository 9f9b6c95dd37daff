import Foundation
import SwitchyardTestSupport

/// A second, unprivileged user for tests of ownership and peer checks; created with `useradd`
/// when the tests run as root (CI does), unavailable otherwise.
enum SecondUser {
    static let name = "switchyard-other"

    /// The user's ids; `nil` when not root (or `useradd` failed).
    static let account: (uid: uid_t, gid: gid_t)? = {
        guard geteuid() == 0 else { return nil }
        if getpwnam(name) == nil {
            let useradd = Process()
            useradd.executableURL = URL(fileURLWithPath: "/usr/sbin/useradd")
            useradd.arguments = ["--system", "--no-create-home", "--shell", "/usr/sbin/nologin", name]
            try? useradd.run()
            useradd.waitUntilExit()
        }
        guard let entry = getpwnam(name) else { return nil }
        return (entry.pointee.pw_uid, entry.pointee.pw_gid)
    }()

    /// Whether tests needing the user run: as root, or under `CI` (where they fail if not root).
    static var testsEnabled: Bool { account != nil || ProcessInfo.processInfo.environment["CI"] != nil }
    static let missingMessage = "needs root to create and use a second user (useradd, setpriv)"

    /// The user's ids, or a thrown failure (under `CI` when not root).
    static func required() throws -> (uid: uid_t, gid: gid_t) {
        guard let account else { throw ControlE2EFailure(description: missingMessage) }
        return account
    }

    /// Starts `command` as the second user (via setpriv) in `directory`, output to `log`.
    static func start(_ command: [String], in directory: URL, log: String) throws -> Process {
        let (uid, gid) = try required()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = ["--reuid=\(uid)", "--regid=\(gid)", "--clear-groups", "--"] + command
        process.currentDirectoryURL = directory
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// The `switchyard` executable linked into `directory/bin`: the build's own path may sit
    /// under a directory only root can enter (a clone in `mktemp -d`, mode 0700), where the
    /// second user could not start it. A hard link,
    /// not a copy: a copy is a file open for writing, and a child another test forks meanwhile
    /// inherits that descriptor, so starting the copy fails with "text file busy".
    static func executable(in directory: URL) throws -> String {
        let bin = directory.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let source = SwitchyardProcess.executable, target = bin.appendingPathComponent("switchyard")
        // Another file system (no hard link across it): a copy, and its small race.
        if link(source.path, target.path) != 0 { try FileManager.default.copyItem(at: source, to: target) }
        return target.path
    }

    /// Hands `path` (and, with `recursive`, everything under it) to the second user.
    static func own(_ path: String) throws {
        let (uid, gid) = try required()
        guard chown(path, uid, gid) == 0 else { throw ControlE2EFailure(description: "chown \(path): \(String(cString: strerror(errno)))") }
    }
}
