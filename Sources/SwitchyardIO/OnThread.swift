/// Runs blocking `body` (a socket read, a `waitpid`) on a thread of its own and returns its
/// result, so the blocking never holds up a thread of the cooperative pool.
///
/// - Parameter stackSize: The new thread's stack in bytes; 0 (the default) for the system's.
/// - Throws: What `body` throws.
package func onThread<T: Sendable, Failure: Error>(
    stackSize: Int = 0,
    _ body: @escaping @Sendable () throws(Failure) -> T
) async throws(Failure) -> T {
    let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, Failure>, Never>) in
        startDetachedThread(stackSize: stackSize) {
            continuation.resume(returning: Result { () throws(Failure) -> T in try body() })
        }
    }
    return try result.get()
}
