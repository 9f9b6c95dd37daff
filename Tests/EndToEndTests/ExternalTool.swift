import Foundation

/// A program from a Debian package that a test runs (xmllint, chromium): found on `PATH`, or
/// the reason the test skips — never under `CI`, where a missing tool fails the test.
struct ExternalTool: Sendable {
    let name: String
    let package: String

    static let xmllint = ExternalTool(name: "xmllint", package: "libxml2-utils")
    static let chromium = ExternalTool(name: "chromium", package: "chromium")

    /// The program's path, if installed.
    var path: String? {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return directories.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    var testsEnabled: Bool { path != nil || ProcessInfo.processInfo.environment["CI"] != nil }

    var missingMessage: String { "needs \(name): install the Debian package \(package)" }

    /// Runs the tool with `arguments` on a thread of its own; its exit status and its stdout and
    /// stderr together.
    func run(_ arguments: [String], in directory: URL? = nil) async throws -> (status: Int32, output: String) {
        guard let path else { throw ControlE2EFailure(description: missingMessage) }
        return try await onThread {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: path)
            process.arguments = arguments
            if let directory { process.currentDirectoryURL = directory }
            let output = FileManager.default.temporaryDirectory.appendingPathComponent("switchyard-tool-\(UUID().uuidString)")
            guard FileManager.default.createFile(atPath: output.path, contents: nil) else {
                throw ControlE2EFailure(description: "cannot create \(output.path)")
            }
            defer { try? FileManager.default.removeItem(at: output) }
            let handle = try FileHandle(forWritingTo: output)
            defer { try? handle.close() }
            process.standardOutput = handle
            process.standardError = handle
            process.standardInput = FileHandle.nullDevice
            try process.run()
            return (process.waitForExitStatus(), (try? String(contentsOf: output, encoding: .utf8)) ?? "")
        }
    }
}
