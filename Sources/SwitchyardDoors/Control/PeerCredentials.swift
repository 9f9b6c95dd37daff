import Glibc

/// The user on the other end of a connected Unix socket, as the kernel recorded it
/// (`SO_PEERCRED`): for a client, the server's user when it called `listen`; for a server,
/// the client's user when it called `connect`. Neither side can forge it.
public enum PeerCredentials {
    // struct ucred, spelled out: Glibc's module hides it without _GNU_SOURCE.
    private struct Credentials {
        var pid: pid_t = 0
        var uid: uid_t = 0
        var gid: gid_t = 0
    }

    /// The user id of the peer of the connected socket `descriptor`; `nil` when the kernel
    /// cannot tell (not a Unix socket, or not connected).
    public static func userID(of descriptor: Int32) -> uid_t? {
        var credentials = Credentials()
        var length = socklen_t(MemoryLayout<Credentials>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0,
              length == socklen_t(MemoryLayout<Credentials>.size)
        else { return nil }
        return credentials.uid
    }
}
