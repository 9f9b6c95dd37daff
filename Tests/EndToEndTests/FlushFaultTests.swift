import Foundation
import SwitchyardTestSupport
import Testing

/// A disk whose flushes a test holds back or fails: `Scripts/slow-flush.c`, built here with
/// clang and preloaded into the bus, makes every `fdatasync` and `fsync` wait while the gate file
/// exists (creating `<gate>.held` when one does), and fail with EIO while the failure file does.
/// The writes themselves go through; only the flushes wait or fail, as on an SD card that takes
/// its time or is dying.
struct PreloadedDisk: Sendable {
    /// The Swift toolchain's own C compiler, which builds the package's C targets.
    static let compiler = ExternalTool(name: "clang", package: "clang")

    /// The variables that preload the library into a bus.
    let environment: [String: String]
    let gate: String
    let failure: String
    var held: String { gate + ".held" }

    /// Builds the library in `directory`; flushes start healthy.
    init(in directory: TemporaryDirectory) async throws {
        let source = SwitchyardProcess.packageRoot.appendingPathComponent("Scripts/slow-flush.c").path
        let library = directory.path("slow-flush.so")
        let built = try await Self.compiler.run(["-shared", "-fPIC", "-o", library, source, "-ldl"])
        guard built.status == 0 else { throw ControlE2EFailure(description: "clang failed: \(built.output)") }
        gate = directory.path("flush-gate")
        failure = directory.path("flush-failure")
        environment = ["LD_PRELOAD": library, "SWITCHYARD_SLOW_FLUSH_GATE": gate, "SWITCHYARD_SLOW_FLUSH_FAIL": failure]
    }

    /// From now on flushes wait; `false` when the gate file cannot be made.
    func holdFlushes() -> Bool {
        FileManager.default.createFile(atPath: gate, contents: nil)
    }

    /// Lets every waiting and later flush through.
    func releaseFlushes() {
        try? FileManager.default.removeItem(atPath: gate)
    }

    /// Whether a flush has been held at the gate.
    var isHolding: Bool { FileManager.default.fileExists(atPath: held) }

    /// From now on flushes fail with EIO; `false` when the failure file cannot be made.
    func failFlushes() -> Bool {
        FileManager.default.createFile(atPath: failure, contents: nil)
    }

    /// Flushes succeed again.
    func healFlushes() {
        try? FileManager.default.removeItem(atPath: failure)
    }
}

/// Flushes on a slow or failing disk. Under `fsync: interval` an acknowledgement means written,
/// and the flush follows within a second: a slow flush must not hold back the acknowledgements
/// of the actions after it. A failed flush, under any policy, stops the bus non-zero and is
/// never acknowledged.
struct FlushFaultTests {
    /// While the periodic flush waits on the disk, later dispatches are still acknowledged; once
    /// it completes the bus stops cleanly and every acknowledged action is in the journal.
    @Test(.enabled(if: PreloadedDisk.compiler.testsEnabled, "needs clang, which the Swift toolchain ships"), .scaledTimeLimit(minutes: 5))
    func heldFlushDoesNotHoldAcknowledgements() async throws {
        let directory = try TemporaryDirectory()
        let disk = try await PreloadedDisk(in: directory)
        let bus = try await RunningBus.start(bus: #"{"name": "slow-flush", "journal": {"fsync": "interval"}}"#,
                                             in: directory, environment: disk.environment)
        let client = try await bus.connect()
        func dispatch(_ n: Int) async throws -> [String: Any] {
            object(try await onThread { try client.request(#"{"op":"dispatch","action":{"type":"flush/n","payload":\#(n)}}"#) })
        }
        // Whatever happens, the gate opens again, so a failing test does not hang the bus.
        let opener = Task {
            try await Task.sleep(for: .seconds(60))
            disk.releaseFlushes()
            return true
        }
        // Held before the first action: held after it, the periodic flush could come between
        // its acknowledgement and the gate, leaving nothing for a later one to flush.
        #expect(disk.holdFlushes())
        #expect(try await dispatch(0)["ok"] as? Bool == true)
        // Within a second the periodic flush finds the action unflushed and waits at the gate.
        #expect(await eventually(interval: .milliseconds(20)) { disk.isHolding }, "no flush reached the gate")
        for n in 1...5 {
            #expect(try await dispatch(n)["ok"] as? Bool == true)
        }
        #expect(disk.isHolding && FileManager.default.fileExists(atPath: disk.gate),
                "the acknowledgements waited for the held flush")
        opener.cancel()
        disk.releaseFlushes()
        #expect(await bus.stop() == 0, "\(bus.process.stderr)")
        let shown = try await bus.client(["journal", "show"])
        #expect(shown.status == 0, "\(shown.stderr)")
        let payloads = shown.stdout.split(separator: "\n").filter { $0.contains("flush/n") }
        #expect(payloads.count == 6, "\(shown.stdout)")
    }

    /// A flush that fails with EIO stops the bus with exit 1, naming the file and errno; under
    /// `always` the dispatch it held is refused with `journal-failed`. After the disk heals the
    /// bus starts again and every acknowledged action is in the journal.
    @Test(.enabled(if: PreloadedDisk.compiler.testsEnabled, "needs clang, which the Swift toolchain ships"), .scaledTimeLimit(minutes: 5),
          arguments: ["always", "interval"])
    func failedFlushStopsTheBus(fsync: String) async throws {
        let directory = try TemporaryDirectory()
        let disk = try await PreloadedDisk(in: directory)
        let bus = try await RunningBus.start(bus: #"{"name": "failing-flush", "journal": {"fsync": "\#(fsync)"}}"#,
                                             in: directory, environment: disk.environment)
        let client = try await bus.connect()
        var acknowledged: [Int] = []
        var refusal: [String: Any]?
        #expect(disk.failFlushes())
        // Under `always` the next dispatch's own flush fails; under `interval` the periodic one
        // does within a second, and the dispatches before it are acknowledged (written).
        for n in 0..<2000 {
            guard let reply = try? await onThread({ try client.request(#"{"op":"dispatch","action":{"type":"flush/n","payload":\#(n)}}"#) })
            else { break }
            let answer = object(reply)
            guard answer["ok"] as? Bool == true, let id = answer["id"] as? Int else {
                refusal = answer
                break
            }
            acknowledged.append(id)
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(await bus.process.exitStatus(timeout: .seconds(60)) == 1)
        #expect(bus.process.stderr.contains("(EIO, errno 5)"), "\(bus.process.stderr)")
        if fsync == "always" {
            let error = refusal?["error"] as? [String: Any]
            #expect(error?["code"] as? String == "journal-failed", "\(String(describing: refusal))")
            #expect(acknowledged.isEmpty)
        }
        disk.healFlushes()
        let restarted = try await bus.restart()
        #expect(await restarted.stop() == 0, "\(restarted.process.stderr)")
        let shown = try await restarted.client(["journal", "show", "flush/*"])
        #expect(shown.status == 0, "\(shown.stderr)")
        let ids = shown.stdout.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["id"] as? Int
        }
        #expect(Set(acknowledged).isSubset(of: Set(ids)), "acknowledged \(acknowledged), journaled \(ids)")
    }
}
