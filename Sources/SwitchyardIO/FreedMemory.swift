import CSwitchyardIO
import Synchronization

/// Gives the heap's free memory back to the system once a streaming client is gone.
///
/// A flood of clients that do not read fills their outboxes (each within its bound) from
/// several threads; when they are dropped the memory is free, but glibc keeps it in its
/// arenas, so the process stays at its peak (measured: 500 dropped event streams left 1-2 GB
/// resident, `malloc_trim` brought it back to about 20 MB). On a small device one burst would
/// then end the bus.
///
/// `malloc_trim` walks every arena, which takes milliseconds on a large heap, so it runs on a
/// thread of its own, never on the event loop; the requests of a burst of closes coalesce
/// into at most one more run after the one under way.
package enum FreedMemory {
    /// 0: no release runs; 1: one runs; 2: one runs and another was asked for since it began.
    private static let state = Atomic<Int>(0)

    /// Releases the heap's free pages to the system soon, off the calling thread.
    package static func release() {
        var current = state.load(ordering: .relaxed)
        while true {
            let (exchanged, original) = state.compareExchange(expected: current, desired: min(current + 1, 2), ordering: .acquiringAndReleasing)
            if exchanged {
                if original == 0 { startDetachedThread { run() } }
                return
            }
            current = original
        }
    }

    private static func run() {
        repeat {
            _ = csio_malloc_trim()
        } while state.wrappingSubtract(1, ordering: .acquiringAndReleasing).newValue > 0
    }
}
