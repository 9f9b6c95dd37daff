import Foundation
import Glibc
import SwitchyardIO
import Synchronization
import Testing
@testable import Switchyard
@testable import SwitchyardBus

/// The data directory's lock within one process: a live lock refuses, a released one that a
/// shared descriptor still holds for a moment is waited for.
struct DataDirectoryLockTests {
    /// A lock this process released, whose open file a copied descriptor still holds (a child
    /// being spawned at that moment), is taken once that copy closes, not refused.
    @Test func aLockReleasedHereIsTakenOnceItsLastCopyCloses() async throws {
        let directory = try JournalTestDirectory()
        let path = directory.path + "/data"
        do {
            let lock = try DataDirectoryLock(dataDirectory: path)
            withExtendedLifetime(lock) {}
        }
        // Another holder of the flock while `bus.lock` still names this process: what a child
        // that shares the released lock's descriptor until it executes looks like from here.
        let copy = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        try #require(copy >= 0)
        try #require(flock(copy, LOCK_EX | LOCK_NB) == 0)
        // On a thread of its own: the lock waits by sleeping. A long wait, so that a loaded
        // machine never runs out of it; the copy closes well within it.
        let taken = Task {
            await onThread { () -> Result<Void, JournalError> in
                Result { () throws(JournalError) in _ = try DataDirectoryLock(dataDirectory: path, releaseWait: .seconds(60)) }
            }
        }
        // Released while the new lock waits (or before it looks: either way it must be taken).
        try await Task.sleep(for: .milliseconds(50))
        close(copy)
        switch await taken.value {
        case .success: break
        case .failure(let error): Issue.record("refused: \(error)")
        }
    }

    /// A directory a live lock of this process holds is refused, naming this process.
    @Test func aLiveLockHereIsRefused() throws {
        let directory = try JournalTestDirectory()
        let path = directory.path + "/data"
        let lock = try DataDirectoryLock(dataDirectory: path)
        defer { withExtendedLifetime(lock) {} }
        do {
            _ = try DataDirectoryLock(dataDirectory: path)
            Issue.record("took a directory this process holds")
        } catch {
            #expect(error.isInUse)
            #expect(error.description.contains("pid \(getpid())"))
        }
    }
}
