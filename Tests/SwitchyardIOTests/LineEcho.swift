import SwitchyardIO

/// A small protocol adapter for the tests: answers each line with `> line`, stops reading
/// while more than `highWater` reply bytes wait, and closes after `idle` without a line. It is
/// written only against ``StreamChannel`` and ``LoopScheduler``, so the same code runs on the
/// embedded loop and on the real one.
final class LineEcho: StreamHandler {
    let channel: any StreamChannel
    private var reader = LineReader(maximumLength: 64)
    private var pending: [UInt8] = []
    private let highWater: Int
    private let idle: Duration
    private var idleTimer: TimerID?
    private(set) var ended = false
    private(set) var closedForIdleness = false
    let onClose: () -> Void

    init(channel: any StreamChannel, highWater: Int = 1 << 20, idle: Duration = .seconds(60), onClose: @escaping () -> Void = {}) {
        self.channel = channel
        self.highWater = highWater
        self.idle = idle
        self.onClose = onClose
        armIdleTimer()
    }

    func received(_ bytes: UnsafeRawBufferPointer) {
        reader.append(bytes)
        answer()
    }

    func receivedEnd(error: IOError?) {
        ended = true
        reader.end()
        answer()
        if pending.isEmpty { close() }
    }

    func writable() {
        flush()
        if ended, pending.isEmpty { close() }
    }

    private func answer() {
        while pending.count <= highWater, let piece = reader.next() {
            switch piece {
            case .line(let line): pending += Array("> ".utf8) + line + [10]
            case .tooLong: pending += Array("! too long\n".utf8)
            }
            armIdleTimer()
        }
        flush()
    }

    private func flush() {
        if !pending.isEmpty {
            let sent = pending.withUnsafeBytes { channel.write($0) } ?? pending.count
            pending.removeFirst(sent)
        }
        channel.wantsWritable = !pending.isEmpty
        channel.isReading = !ended && pending.count <= highWater
        if pending.count <= highWater, !reader.needsInput { answer() }
    }

    private func armIdleTimer() {
        if let idleTimer { channel.scheduler.cancel(idleTimer) }
        idleTimer = channel.scheduler.schedule(after: idle) { [weak self] in
            guard let self else { return }
            self.closedForIdleness = true
            self.close()
        }
    }

    private func close() {
        if let idleTimer { channel.scheduler.cancel(idleTimer) }
        idleTimer = nil
        channel.close()
        onClose()
    }
}
