import Glibc

/// A ``StreamChannel`` over a connected, non-blocking socket or pipe on a ``LoopThread``.
///
/// Level triggered: a handler that turns reading off mid-chunk hears of the rest when it turns
/// it back on. At most ``readsPerWake`` reads happen per readiness so one busy peer cannot
/// starve the others. A hung-up (or failed) descriptor that wants nothing is taken out of epoll, which
/// would otherwise report it on every wait.
package final class SocketChannel: StreamChannel, DescriptorHandler {
    /// How many reads one readiness report may do before other descriptors get their turn.
    static let readsPerWake = 16

    /// The descriptor; owned by the channel and closed by ``close()``.
    package let descriptor: Int32
    /// Hears what arrives; released when the channel closes.
    package var handler: (any StreamHandler)?
    private let thread: LoopThread
    private let isSocket: Bool
    private var registration: Registration?
    private var ended = false
    private var sawError = false

    package private(set) var isHungUp = false
    package var isReading = true {
        didSet { if isReading != oldValue { updateInterest() } }
    }
    package var wantsWritable = false {
        didSet { if wantsWritable != oldValue { updateInterest() } }
    }
    package var scheduler: any LoopScheduler { thread }

    /// Registers `descriptor` (a socket when `isSocket`, else a pipe end) on `thread`.
    /// - Throws: ``IOError`` when epoll refuses the descriptor; it is then left open.
    package init(descriptor: Int32, isSocket: Bool = true, on thread: LoopThread) throws(IOError) {
        self.descriptor = descriptor
        self.isSocket = isSocket
        self.thread = thread
        registration = try thread.register(descriptor, interest: .readable, handler: self)
    }

    package func ready(_ events: IOEvents) {
        let newlyHungUp = events.contains(.hangUp) && !isHungUp
        if newlyHungUp { isHungUp = true }
        if events.contains(.error) { sawError = true }
        if !events.isDisjoint(with: [.readable, .hangUp, .error]) { readAvailable() }
        if events.contains(.writable), wantsWritable, registration != nil { handler?.writable() }
        if newlyHungUp, registration != nil { handler?.hungUp() }
        updateInterest()
    }

    private func readAvailable() {
        var reads = 0
        while isReading, !ended, registration != nil, reads < Self.readsPerWake {
            reads += 1
            let count = thread.readBuffer.withUnsafeMutableBytes { buffer in
                isSocket ? recv(descriptor, buffer.baseAddress, buffer.count, Int32(MSG_DONTWAIT))
                    : Glibc.read(descriptor, buffer.baseAddress, buffer.count)
            }
            if count > 0 {
                thread.readBuffer.withUnsafeBytes { handler?.received(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
                // A short read took all there was: epoll, level triggered, reports the descriptor
                // again when more arrives, so reading on would only fetch EAGAIN — one system
                // call in two on a busy control socket.
                if count < thread.readBuffer.count { return }
            } else if count == 0 {
                ended = true
                handler?.receivedEnd(error: nil)
            } else if errno == EINTR {
                continue
            } else if errno == EAGAIN || errno == EWOULDBLOCK {
                return
            } else {
                let code = errno
                ended = true
                handler?.receivedEnd(error: .system(isSocket ? "recv" : "read", errno: code))
            }
        }
    }

    package func write(_ bytes: UnsafeRawBufferPointer) -> Int? {
        guard registration != nil else { return nil }
        while true {
            let sent = isSocket
                ? send(descriptor, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
                : Glibc.write(descriptor, bytes.baseAddress, bytes.count)
            if sent >= 0 { return sent }
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK { return 0 }
            return nil
        }
    }

    package func close() {
        guard let registration else { return }
        thread.deregister(registration)
        self.registration = nil
        handler = nil
        Glibc.close(descriptor)
    }

    private func updateInterest() {
        guard let registration else { return }
        var interest: IOEvents = []
        if isReading, !ended { interest.insert(.readable) }
        if wantsWritable { interest.insert(.writable) }
        // The kernel reports a hang-up or a pending error on every wait whatever the interest.
        thread.setInterest(registration, interest.isEmpty && (isHungUp || sawError) ? nil : interest)
    }
}
