import Foundation

/// Lines for the user: results on stdout, problems on stderr.
enum Output {
    static func out(_ text: String) {
        write(text + "\n", to: 1)
    }

    static func error(_ text: String) {
        write(text + "\n", to: 2)
    }

    private static func write(_ text: String, to descriptor: Int32) {
        write(Array(text.utf8), to: descriptor)
    }

    /// Writes bytes to stdout as they are: for output built up in large pieces.
    static func out(bytes: [UInt8]) {
        write(bytes, to: 1)
    }

    private static func write(_ bytes: [UInt8], to descriptor: Int32) {
        var bytes = bytes
        bytes.withUnsafeMutableBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
    }
}
