/// Continuations collected under the lock and resumed after it is released, so a resumed task
/// never contends for the lock its resumer still holds.
///
/// The first continuation is stored inline and the rest only when there are any: the common send
/// wakes at most one waiter and must neither allocate nor release anything.
@usableFromInline
struct _Wakeups: Sendable {
    @usableFromInline var first: UnsafeContinuation<Void, Never>?
    @usableFromInline var others: [UnsafeContinuation<Void, Never>]?

    @inlinable
    init() {
        first = nil
        others = nil
    }

    @inlinable
    mutating func append(_ continuation: UnsafeContinuation<Void, Never>) {
        if first == nil {
            first = continuation
        } else if others == nil {
            others = [continuation]
        } else {
            others!.append(continuation)
        }
    }

    @inlinable
    func resumeAll() {
        guard let first else { return }
        first.resume()
        guard let others else { return }
        for continuation in others {
            continuation.resume()
        }
    }
}
