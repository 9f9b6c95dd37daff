import Foundation

/// Reads `handle` up to its first newline (or its end) and returns the line without it: on a
/// thread of its own, for a child that announces itself on stdout (`PORT 40123`).
///
/// Not on a Dispatch queue: on Linux the Swift concurrency pool *is* Dispatch's global queue
/// (there are no separate cooperative threads), so a blocking read there takes a thread from
/// every test in the process. A suite that starts twenty such children at once on a loaded
/// machine held every thread until the slowest child had started, and all its tests, even
/// those with nothing to do with the children, stalled together.
public func firstLine(of handle: FileHandle) async -> String {
    await withCheckedContinuation { continuation in
        Thread {
            var line: [UInt8] = []
            while let byte = handle.readData(ofLength: 1).first, byte != UInt8(ascii: "\n") { line.append(byte) }
            continuation.resume(returning: String(decoding: line, as: UTF8.self))
        }.start()
    }
}
