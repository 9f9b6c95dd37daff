import Foundation

/// A disk that takes its time to flush, for `bus.control-throughput.slow-disk`: a small library,
/// built with `clang` on first use and preloaded into the bus, adds
/// ``SlowFlushLibrary/delayMilliseconds`` to every `fdatasync` and `fsync` (an SD card of a field
/// device takes 10–100 ms to flush). Writes themselves are untouched.
enum SlowFlushLibrary {
    /// What each flush waits beyond the real one.
    static let delayMilliseconds = 20

    /// The environment that preloads the library into a bus; `nil` (and the reason printed once)
    /// when it cannot be built.
    static let environment: [String: String]? = {
        var template = Array("/tmp/sy-bench-flush-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { return failed("cannot make a temporary directory") }
        let directory = String(cString: made)
        let source = directory + "/slow-flush.c"
        let library = directory + "/slow-flush.so"
        removeAtExit(directory)
        guard FileManager.default.createFile(atPath: source, contents: Data(code.utf8)) else { return failed("cannot write \(source)") }
        let compiler = Process()
        compiler.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        compiler.arguments = ["clang", "-O2", "-shared", "-fPIC", "-o", library, source, "-ldl"]
        compiler.standardOutput = FileHandle.nullDevice
        compiler.standardError = FileHandle.nullDevice
        guard (try? compiler.run()) != nil else { return failed("cannot run clang") }
        compiler.waitUntilExit()
        guard compiler.terminationStatus == 0 else { return failed("clang could not build it") }
        return ["LD_PRELOAD": library, "SWITCHYARD_BENCH_FLUSH_DELAY_MS": String(delayMilliseconds)]
    }()

    private static func failed(_ reason: String) -> [String: String]? {
        print("bus.control-throughput.slow-disk: case skipped, the slow-flush library: \(reason) (clang comes with the Swift toolchain)")
        return nil
    }

    private static let code = #"""
        #define _GNU_SOURCE
        #include <dlfcn.h>
        #include <stdlib.h>
        #include <unistd.h>

        static void wait_as_a_slow_disk(void) {
            const char *delay = getenv("SWITCHYARD_BENCH_FLUSH_DELAY_MS");
            if (delay != NULL) usleep((useconds_t)atoi(delay) * 1000);
        }

        int fdatasync(int descriptor) {
            static int (*next)(int);
            if (next == NULL) next = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
            wait_as_a_slow_disk();
            return next(descriptor);
        }

        int fsync(int descriptor) {
            static int (*next)(int);
            if (next == NULL) next = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
            wait_as_a_slow_disk();
            return next(descriptor);
        }
        """#
}
