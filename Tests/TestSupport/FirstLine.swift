import Foundation
import SwitchyardIO

/// Reads `handle` up to its first newline (or its end) and returns the line without it: on a
/// thread of its own, for a child that announces itself on stdout (`PORT 40123`).
///
/// Not on a Dispatch queue: on Linux the Swift concurrency pool *is* Dispatch's global queue
/// (there are no separate cooperative threads), so a blocking read there takes a thread from
/// every test in the process. A suite that starts twenty such children at once on a loaded
/// machine held every thread until the slowest child had started, and all its tests, even
/// those with nothing to do with the children, stalled together.
public func firstLine(of handle: FileHandle) async -> String {
    await onThread {
        var line: [UInt8] = []
        while let byte = handle.readData(ofLength: 1).first, byte != UInt8(ascii: "\n") { line.append(byte) }
        return String(decoding: line, as: UTF8.self)
    }
}

/// Why a child meant to announce its port did not.
public struct PortAnnouncementError: Error, CustomStringConvertible {
    public let description: String
}

/// Starts `executable` with `arguments` and waits for the `PORT <n>` line it prints first on
/// stdout (a test server listening on a free port); returns the running child and the port.
/// - Throws: ``PortAnnouncementError`` naming `name` and what the child printed instead (the
///   child is stopped), or what starting it threw.
public func startAnnouncingPort(_ executable: String, _ arguments: [String], name: String) async throws -> (process: Process, port: Int) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let line = await firstLine(of: output.fileHandleForReading)
    guard line.hasPrefix("PORT "), let port = Int(line.dropFirst(5)) else {
        process.signalAndWait(SIGTERM)
        throw PortAnnouncementError(description: "\(name) did not start: \(line)")
    }
    return (process, port)
}
