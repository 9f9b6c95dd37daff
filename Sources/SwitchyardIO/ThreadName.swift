import CSwitchyardIO

/// Names the calling thread as the kernel keeps it (its first 15 bytes), so `top -H`,
/// `ps -L` and /proc show which of the bus's threads is which. Foundation's `Thread.name`
/// does not reach the kernel on Linux, so a thread names itself with this once it runs.
package func nameCurrentThread(_ name: String) {
    csio_name_thread(name)
}
