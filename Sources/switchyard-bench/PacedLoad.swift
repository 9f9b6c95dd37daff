import Foundation
import Synchronization

/// What a bus spent on an open-loop load: its CPU time per action and each dispatch's latency.
struct PacedRun: Sendable {
    /// Actions answered.
    var actions: Int
    /// The bus process's user and system CPU seconds over the run.
    var cpuSeconds: Double
    /// Each action's time from when the schedule said to send it to its reply, in microseconds.
    var latencies: [Double]

    var cpuPerAction: Double { cpuSeconds / Double(max(actions, 1)) }
}

extension BenchBus {
    /// Dispatches `rate` actions a second for `seconds` on one control connection, open loop: a
    /// clock paces the sends (every millisecond, the actions due since the last), whatever the
    /// replies do, so a slow bus shows as latency and not as a lower offered load. A latency
    /// counts from the action's place in the schedule, not from its late send (no coordinated
    /// omission). `nil` when the bus cannot be reached or stops answering.
    func pacedDispatch(rate: Int, seconds: Double) -> PacedRun? {
        guard let connection = try? SocketLine(path: socketPath) else { return nil }
        let channel = UncheckedLine(connection)
        let total = Int(Double(rate) * seconds)
        let request = Array(#"{"op":"dispatch","action":{"type":"load/n","payload":{"n":1}}}"#.utf8) + [10]
        let clock = ContinuousClock()
        let cpuBefore = CPUPerAction.processTime(of: processID)
        let start = clock.now
        let writer = DispatchSemaphore(value: 0)
        Thread {
            defer { writer.signal() }
            var sent = 0
            while sent < total {
                let due = min(total, Int((clock.now - start).secondsValue * Double(rate)))
                if due > sent {
                    channel.line.write(Array([[UInt8]](repeating: request, count: due - sent).joined()))
                    sent = due
                }
                usleep(1000)
            }
        }.start()
        var latencies: [Double] = []
        latencies.reserveCapacity(total)
        for index in 0..<total {
            guard channel.line.readLine() != nil else { break }
            let scheduled = start + .seconds(Double(index) / Double(rate))
            latencies.append((clock.now - scheduled).microseconds)
        }
        writer.wait()
        let cpu = CPUPerAction.processTime(of: processID) - cpuBefore
        guard latencies.count == total else { return nil }
        return PacedRun(actions: total, cpuSeconds: cpu, latencies: latencies)
    }
}

/// One control connection written by the pacing thread and read by the measuring one: the
/// writes touch only the descriptor, the reads only the read buffer.
private final class UncheckedLine: @unchecked Sendable {
    let line: SocketLine

    init(_ line: SocketLine) {
        self.line = line
    }
}
