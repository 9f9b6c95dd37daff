import CSwitchyardIO
import Glibc

/// The loop's single wake-up descriptor: a close-on-exec, non-blocking `eventfd`, so no child
/// inherits it and a wake-up never blocks the waker.
struct Wakeup: ~Copyable {
    /// The descriptor the loop polls.
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
        Self.signal(descriptor)
    }

    /// Resets the descriptor after the loop woke.
    func clear() {
        Self.clear(descriptor)
    }

    /// Makes the non-blocking eventfd `descriptor` readable (``WorkerThread`` parks on one too).
    static func signal(_ descriptor: Int32) {
        var one: UInt64 = 1
        _ = Glibc.write(descriptor, &one, 8)
    }

    /// Resets the non-blocking eventfd `descriptor` after a wake-up.
    static func clear(_ descriptor: Int32) {
        var count: UInt64 = 0
        _ = Glibc.read(descriptor, &count, 8)
    }
}
