import Foundation
import SwitchyardTestSupport
import Testing

/// A disk whose flushes the test holds back: `Scripts/slow-flush.c`, built here with clang and
/// preloaded into the bus, makes every `fdatasync` and `fsync` wait while the gate file exists
/// (creating `<gate>.held` when one does). The writes themselves go through; only the flushes
/// wait, as on an SD card that takes its time.
struct HeldFlushes: Sendable {
    /// The Swift toolchain's own C compiler, which builds the package's C targets.
    static let compiler = ExternalTool(name: "clang", package: "clang")

    /// The variables that preload the library into a bus.
    let environment: [String: String]
    let gate: String
    var held: String { gate + ".held" }

    /// Builds the library in `directory`; the gate starts open.
    init(in directory: TemporaryDirectory) async throws {
        let source = SwitchyardProcess.packageRoot.appendingPathComponent("Scripts/slow-flush.c").path
        let library = directory.path("slow-flush.so")
        let built = try await Self.compiler.run(["-shared", "-fPIC", "-o", library, source, "-ldl"])
        guard built.status == 0 else { throw ControlE2EFailure(description: "clang failed: \(built.output)") }
        gate = directory.path("flush-gate")
        environment = ["LD_PRELOAD": library, "SWITCHYARD_SLOW_FLUSH_GATE": gate]
    }

    /// From now on flushes wait; `false` when the gate file cannot be made.
    func close() -> Bool {
        FileManager.default.createFile(atPath: gate, contents: nil)
    }

    /// Lets every waiting and later flush through.
    func open() {
        try? FileManager.default.removeItem(atPath: gate)
    }

    /// Whether a flush has been held at the gate.
    var isHolding: Bool { FileManager.default.fileExists(atPath: held) }
}

/// Under `fsync: interval` an acknowledgement means written, and the flush follows within a
/// second: a slow flush must not hold back the acknowledgements of the actions after it.
struct SlowFlushTests {
    /// While the periodic flush waits on the disk, later dispatches are still acknowledged; once
    /// it completes the bus stops cleanly and every acknowledged action is in the journal.
    @Test(.enabled(if: HeldFlushes.compiler.testsEnabled, "needs clang, which the Swift toolchain ships"), .scaledTimeLimit(minutes: 5))
    func heldFlushDoesNotHoldAcknowledgements() async throws {
        let directory = try TemporaryDirectory()
        let flushes = try await HeldFlushes(in: directory)
        let bus = try await RunningBus.start(bus: #"{"name": "slow-flush", "journal": {"fsync": "interval"}}"#,
                                             in: directory, environment: flushes.environment)
        let client = try await bus.connect()
        func dispatch(_ n: Int) async throws -> [String: Any] {
            object(try await onThread { try client.request(#"{"op":"dispatch","action":{"type":"flush/n","payload":\#(n)}}"#) })
        }
        // The first action creates the segment, whose header is flushed before it is written.
        #expect(try await dispatch(0)["ok"] as? Bool == true)
        #expect(flushes.close())
        // Within a second the periodic flush finds the action unflushed and waits at the gate.
        #expect(await eventually(interval: .milliseconds(20)) { flushes.isHolding }, "no flush reached the gate")
        // Whatever happens, the gate opens again, so a failing test does not hang the bus.
        let opener = Task {
            try await Task.sleep(for: .seconds(60))
            flushes.open()
            return true
        }
        for n in 1...5 {
            #expect(try await dispatch(n)["ok"] as? Bool == true)
        }
        #expect(flushes.isHolding && FileManager.default.fileExists(atPath: flushes.gate),
                "the acknowledgements waited for the held flush")
        opener.cancel()
        flushes.open()
        #expect(await bus.stop() == 0, "\(bus.process.stderr)")
        let shown = try await bus.client(["journal", "show"])
        #expect(shown.status == 0, "\(shown.stderr)")
        let payloads = shown.stdout.split(separator: "\n").filter { $0.contains("flush/n") }
        #expect(payloads.count == 6, "\(shown.stdout)")
    }
}
