import Foundation

/// Tells systemd (`Type=notify`) that the service is ready, through `$NOTIFY_SOCKET`.
enum SystemdNotifier {
    /// Sends `message` (such as `READY=1`) when `NOTIFY_SOCKET` is set; does nothing otherwise.
    /// Returns a problem description when the socket is set but the message could not be sent.
    static func notify(_ message: String, environment: [String: String]) -> String? {
        guard var path = environment["NOTIFY_SOCKET"], !path.isEmpty else { return nil }
        // A leading "@" names a socket in the abstract namespace, spelled with a NUL byte.
        let abstract = path.hasPrefix("@")
        if abstract { path.removeFirst() }
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return "cannot create a notify socket: \(String(cString: strerror(errno)))" }
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var pathBytes = Array(path.utf8)
        if abstract { pathBytes.insert(0, at: 0) }
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard pathBytes.count < capacity else { return "NOTIFY_SOCKET path is too long" }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in pathBytes.enumerated() { buffer[index] = byte }
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + pathBytes.count + (abstract ? 0 : 1))
        let bytes = Array(message.utf8)
        let sent = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                sendto(descriptor, bytes, bytes.count, 0, socketAddress, length)
            }
        }
        return sent < 0 ? "cannot notify systemd: \(String(cString: strerror(errno)))" : nil
    }
}
