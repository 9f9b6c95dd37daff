import Glibc

/// Sends all of `bytes` on the blocking socket `descriptor`, stopping early when the
/// connection fails: the bench clients learn of a lost peer from their next read, and
/// `MSG_NOSIGNAL` keeps a closed peer from killing the bench with SIGPIPE.
func sendAll(_ bytes: [UInt8], to descriptor: Int32) {
    var offset = 0
    while offset < bytes.count {
        let sent = bytes[offset...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent > 0 else { return }
        offset += sent
    }
}
