import Foundation

/// A disk that takes its time to flush, for `bus.control-throughput.slow-disk`:
/// `Scripts/slow-flush.c`, built with `clang` on first use and preloaded into the bus, adds
/// ``SlowFlushLibrary/delayMilliseconds`` to every `fdatasync` and `fsync` (an SD card of a field
/// device takes 10–100 ms to flush). Writes themselves are untouched.
enum SlowFlushLibrary {
    /// What each flush waits beyond the real one.
    static let delayMilliseconds = 20

    /// The environment that preloads the library into a bus; `nil` (and the reason printed once)
    /// when it cannot be built.
    static let environment: [String: String]? = {
        let source = "Scripts/slow-flush.c"
        guard FileManager.default.fileExists(atPath: source) else { return failed("\(source) not found here (run the bench from the package root)") }
        var template = Array("/tmp/sy-bench-flush-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { return failed("cannot make a temporary directory") }
        let directory = String(cString: made)
        removeAtExit(directory)
        let library = directory + "/slow-flush.so"
        let compiler = Process()
        compiler.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        compiler.arguments = ["clang", "-O2", "-shared", "-fPIC", "-o", library, source, "-ldl"]
        compiler.standardOutput = FileHandle.nullDevice
        compiler.standardError = FileHandle.nullDevice
        guard (try? compiler.run()) != nil else { return failed("cannot run clang") }
        compiler.waitUntilExit()
        guard compiler.terminationStatus == 0 else { return failed("clang could not build \(source)") }
        return ["LD_PRELOAD": library, "SWITCHYARD_SLOW_FLUSH_MS": String(delayMilliseconds)]
    }()

    private static func failed(_ reason: String) -> [String: String]? {
        print("bus.control-throughput.slow-disk: case skipped: \(reason) (clang comes with the Swift toolchain)")
        return nil
    }
}
