import CExecSpawn
import Glibc

/// Every child process the exec plugins of this process have started and not yet reaped.
public enum ExecChildren {
    /// Sends SIGKILL to the process group of every live child, for a process that must exit
    /// at once (a second stop signal, a stop that hung): nothing it started outlives it.
    /// Children also die with the process by themselves (`PR_SET_PDEATHSIG`), but only the
    /// child, not what it started in its group; this reaches those too.
    /// - Returns: How many children were signalled.
    @discardableResult
    public static func killAll() -> Int {
        Int(cexec_children_kill_all(SIGKILL))
    }
}
