#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Removes the System V shared memory gpsd leaves behind when killed.
///
/// gpsd creates one segment per instance (gpsfake derives its key from the port) and the eight
/// NTP segments `NTP0`–`NTP7`, shared by every gpsd on the machine. The per-port segment is
/// ours alone; an NTP segment is removed only if it did not exist before the first test
/// started a gpsd and nothing is attached to it, so a real gpsd feeding chrony keeps its own.
enum GPSDSharedMemory {
    private static let timeSegmentKeys = (0..<8).map { key_t(0x4e54_5030 + $0) }
    private static let preexisting = Mutex<Set<key_t>?>(nil)

    /// Notes which NTP segments exist; only the first call counts.
    static func recordExistingTimeSegments() {
        preexisting.withLock { recorded in
            guard recorded == nil else { return }
            recorded = Set(timeSegmentKeys.filter { shmget($0, 0, 0) >= 0 })
        }
    }

    /// Waits (up to 30 seconds, scaled) until no process is attached to the segment with `key`.
    static func waitUntilDetached(key: key_t) {
        let deadline = TestDeadline(after: .seconds(30))
        while !deadline.hasPassed {
            let id = shmget(key, 0, 0)
            var status = shmid_ds()
            guard id >= 0, shmctl(id, IPC_STAT, &status) == 0, status.shm_nattch > 0 else { return }
            usleep(10_000)
        }
    }

    /// Removes the segment with `key` if it exists and nothing is attached.
    static func remove(key: key_t) {
        let id = shmget(key, 0, 0)
        guard id >= 0 else { return }
        var status = shmid_ds()
        guard shmctl(id, IPC_STAT, &status) == 0, status.shm_nattch == 0 else { return }
        shmctl(id, IPC_RMID, nil)
    }

    /// Removes the NTP segments the tests' gpsd instances created, once none is attached.
    static func removeTimeSegmentsCreatedByTests() {
        let existing = preexisting.withLock { $0 } ?? Set(timeSegmentKeys)
        for key in timeSegmentKeys where !existing.contains(key) { remove(key: key) }
    }
}
