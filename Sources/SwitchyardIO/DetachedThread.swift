import Glibc

/// Starts `body` on a new detached thread (a POSIX thread, as Foundation's `Thread` is, so
/// the bus links FoundationEssentials only: Foundation would map another 6 MB of libraries).
///
/// - Parameter stackSize: The thread's stack in bytes; 0 (the default) for the system's.
/// - Precondition: The system can start a thread; one that cannot (`EAGAIN`: the process or
///   user is out of threads) stops the process with the reason, as Foundation's `Thread` does.
package func startDetachedThread(stackSize: Int = 0, _ body: @escaping @Sendable () -> Void) {
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
    if stackSize > 0 { pthread_attr_setstacksize(&attributes, stackSize) }
    let context = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
    var thread = pthread_t()
    let result = pthread_create(&thread, &attributes, { context in
        Unmanaged<ThreadBody>.fromOpaque(context!).takeRetainedValue().body()
        return nil
    }, context)
    guard result == 0 else {
        Unmanaged<ThreadBody>.fromOpaque(context).release()
        fatalError("cannot start a thread: \(String(cString: strerror(result)))")
    }
}

private final class ThreadBody: Sendable {
    let body: @Sendable () -> Void

    init(_ body: @escaping @Sendable () -> Void) {
        self.body = body
    }
}
