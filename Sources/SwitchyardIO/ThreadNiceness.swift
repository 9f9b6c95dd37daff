import CSwitchyardIO

/// Sets the calling thread's nice value (Linux keeps one per thread): 19, the lowest priority,
/// makes a background thread yield the CPU to the others of the process whenever they can run.
/// Returns whether it was set; raising a thread's priority (a lower value) needs privileges
/// and fails, lowering it never does.
@discardableResult
package func setCurrentThreadNiceness(_ niceness: Int32) -> Bool {
    csio_set_thread_niceness(niceness) == 0
}

/// The calling thread's nice value (0 unless lowered).
package func currentThreadNiceness() -> Int32 {
    csio_thread_niceness()
}
