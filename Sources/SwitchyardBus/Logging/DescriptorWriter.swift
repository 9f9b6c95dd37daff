import FoundationEssentials
import Glibc

/// Writes whole byte buffers to a file descriptor: the one loop every line writer here needs.
package enum DescriptorWriter {
    /// Writes all of `bytes` to `descriptor`, retrying partial writes and `EINTR`. Returns
    /// `false` (having written a prefix) when the descriptor reports an error such as `EPIPE`.
    @discardableResult
    package static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        write(bytes, to: descriptor) == nil
    }

    /// Writes all of `bytes` to `descriptor`, retrying partial writes and `EINTR`; returns
    /// `nil`, or the `errno` of the write that failed (having written a prefix).
    package static func write(_ bytes: [UInt8], to descriptor: Int32) -> Int32? {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
    }

    /// Writes `line` and a newline to `descriptor` in one call, so lines never interleave.
    @discardableResult
    package static func writeLine(_ line: String, to descriptor: Int32) -> Bool {
        var bytes = Array(line.utf8)
        bytes.append(10)
        return writeAll(bytes, to: descriptor)
    }
}
