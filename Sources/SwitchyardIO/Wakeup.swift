import CSwitchyardIO
import Glibc

/// A close-on-exec, non-blocking `eventfd` a thread parks on until another wakes it: the
/// loop's single wake-up, and a ``WorkerThread``'s. No child inherits it and a wake-up never
/// blocks the waker.
///
/// A class, not a non-copyable struct, so an owner can hold an optional one (`try? Wakeup()`)
/// and signal it through `wakeup?.signal()` without consuming it.
final class Wakeup: Sendable {
    /// The descriptor the owner polls.
    let descriptor: Int32

    /// Creates the eventfd.
    /// - Throws: ``IOError`` when the system has no descriptors left.
    init() throws(IOError) {
        let descriptor = csio_eventfd()
        guard descriptor >= 0 else { throw IOError.system("eventfd", errno: errno) }
        self.descriptor = descriptor
    }

    deinit {
        Glibc.close(descriptor)
    }

    /// Makes the descriptor readable. Never blocks: a full counter is already readable.
    func signal() {
        var one: UInt64 = 1
        _ = Glibc.write(descriptor, &one, 8)
    }

    /// Resets the descriptor after the owner woke.
    func clear() {
        var count: UInt64 = 0
        _ = Glibc.read(descriptor, &count, 8)
    }

    /// Parks the calling thread until signalled or `timeout` passes (`nil`: no limit), then
    /// resets the descriptor.
    func wait(timeout: Duration?) {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        _ = poll(&entry, 1, timeout?.timeoutMilliseconds ?? -1)
        clear()
    }
}
