/// Continuations collected under the lock and resumed after it is released, so a resumed task
/// never contends for the lock its resumer still holds.
///
/// The first continuation is stored inline: the common send wakes at most one waiter and must not
/// allocate.
@usableFromInline
struct _Wakeups: Sendable {
    @usableFromInline var first: UnsafeContinuation<Void, Never>?
    @usableFromInline var others: [UnsafeContinuation<Void, Never>]

    @inlinable
    init() {
        first = nil
        others = []
    }

    @inlinable
    mutating func append(_ continuation: UnsafeContinuation<Void, Never>) {
        if first == nil {
            first = continuation
        } else {
            others.append(continuation)
        }
    }

    @inlinable
    func resumeAll() {
        guard let first else { return }
        first.resume()
        for continuation in others {
            continuation.resume()
        }
    }
}
