import Synchronization

/// How work triggered by a stream of elements overlaps: the middleware helper's policies.
public enum WorkPolicy: Sendable, Hashable {
    /// A new element cancels the work in flight and starts its own (switch to latest).
    case latest
    /// Every element gets its work, at most `maxConcurrent` at a time; further elements wait
    /// (in their buffer) for a free slot.
    case every(maxConcurrent: Int)
    /// An element arriving while work is in flight is ignored.
    case leading
    /// Every element gets its work, one after another, in order.
    case queue
}

extension AsyncSequence where Self: Sendable, Element: Sendable, Failure == Never {
    /// Runs `work` for the elements of this sequence under `policy`.
    ///
    /// Returns when the sequence ends (after in-flight work finishes) or when the calling task
    /// is cancelled (after cancelling in-flight work and waiting for it), so no work outlives
    /// the call.
    ///
    /// ```swift
    /// await context.actions.forEach(policy: .latest) { action in
    ///     let value = try? await fetch(action.payload)
    ///     await context.dispatch("places/loaded", payload: value ?? .null, cause: action.id)
    /// }
    /// ```
    public func forEach(policy: WorkPolicy, _ work: @escaping @Sendable (Element) async -> Void) async {
        switch policy {
        case .queue:
            for await element in self { await work(element) }
        case .every(let maxConcurrent):
            await withTaskGroup(of: Void.self) { group in
                var running = 0
                for await element in self {
                    if running >= Swift.max(1, maxConcurrent) {
                        await group.next()
                        running -= 1
                    }
                    group.addTask { await work(element) }
                    running += 1
                }
                await group.waitForAll()
            }
        case .latest:
            var current: Task<Void, Never>?
            for await element in self {
                current?.cancel()
                let previous = current
                current = Task {
                    // The previous work must be gone before this one can emit anything.
                    await previous?.value
                    guard !Task.isCancelled else { return }
                    await work(element)
                }
            }
            if Task.isCancelled { current?.cancel() }
            await current?.value
        case .leading:
            let busy = BusyFlag()
            var current: Task<Void, Never>?
            for await element in self where busy.claim() {
                current = Task {
                    await work(element)
                    busy.release()
                }
            }
            if Task.isCancelled { current?.cancel() }
            await current?.value
        }
    }
}

/// Whether leading work is in flight; claimed by the loop, released by the work's task.
private final class BusyFlag: Sendable {
    private let busy = Mutex(false)

    func claim() -> Bool {
        busy.withLock { busy in
            guard !busy else { return false }
            busy = true
            return true
        }
    }

    func release() {
        busy.withLock { $0 = false }
    }
}
