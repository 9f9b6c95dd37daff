import Foundation

/// One blocking connection of the baseline client: it reads whole `MSG`s and answers pings.
final class RawSession {
    let descriptor: Int32
    private var buffer: [UInt8] = []
    private var start = 0
    /// Read into, kept between reads: zeroing a fresh 64 KiB per read was the baseline's top cost.
    private var chunk = [UInt8](repeating: 0, count: 1 << 16)

    /// A session subscribed to ``RawNATS/rawSubject`` when `subscribing`; a probe asking the
    /// server questions must not be, or the bridge's messages come before its answers.
    init?(port: Int, subscribing: Bool = true) {
        guard let descriptor = RawNATS.connect(port: port) else { return nil }
        self.descriptor = descriptor
        // Headers announced: the JetStream baseline publishes with HPUB, which the server refuses otherwise.
        let subscription = subscribing ? "SUB \(RawNATS.rawSubject) 1\r\n" : ""
        write(Array("CONNECT {\"verbose\":false,\"echo\":true,\"headers\":true}\r\n\(subscription)PING\r\n".utf8))
        while let line = readLine(), !buffer[line].elementsEqual("PONG".utf8) {}
    }

    func write(_ bytes: [UInt8]) {
        RawNATS.write(bytes, to: descriptor)
    }

    /// Reads up to the next message and skips its payload; `false` when the connection ended.
    ///
    /// Lines are read as bytes, as a real client does: making a string of each line and
    /// splitting it was this reader's largest cost, and held the baseline below what the
    /// server can carry.
    func readMessage() -> Bool {
        while let line = readLine() {
            guard let size = messageSize(line) else { continue }
            guard fill(size + 2) else { return false }
            start += size + 2
            return true
        }
        return false
    }

    /// Reads up to the next message and returns its payload; `nil` when the connection ended.
    func readPayload() -> [UInt8]? {
        while let line = readLine() {
            guard let size = messageSize(line) else { continue }
            let hasHeaders = buffer[line].starts(with: "HMSG ".utf8)
            guard fill(size + 2) else { return nil }
            let payload = Array(buffer[start..<(start + size)])
            start += size + 2
            return hasHeaders ? nil : payload
        }
        return nil
    }

    /// The size at the end of a `MSG` or `HMSG` line; `nil` for another line (a `PING` is
    /// answered).
    private func messageSize(_ line: Range<Int>) -> Int? {
        let text = buffer[line]
        if text.elementsEqual("PING".utf8) { write(Array("PONG\r\n".utf8)) }
        guard text.starts(with: "MSG ".utf8) || text.starts(with: "HMSG ".utf8) else { return nil }
        var size = 0
        var digit = line.upperBound
        var scale = 1
        while digit > line.lowerBound, case let byte = buffer[digit - 1], byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
            size += Int(byte - UInt8(ascii: "0")) * scale
            scale *= 10
            digit -= 1
        }
        return digit < line.upperBound ? size : nil
    }

    /// The next line without its line break, as a range of ``buffer``; `nil` at the end.
    private func readLine() -> Range<Int>? {
        var scanned = start
        while true {
            if let newline = buffer[scanned...].firstIndex(of: 10) {
                let line = start..<(newline > start && buffer[newline - 1] == 13 ? newline - 1 : newline)
                start = newline + 1
                return line
            }
            scanned = buffer.count
            let offset = scanned - start
            guard fill(buffer.count - start + 1) else { return nil }
            scanned = start + offset
        }
    }

    /// Reads until at least `count` unread bytes are buffered; `false` at the end of the stream.
    private func fill(_ count: Int) -> Bool {
        if start > 1 << 16 {
            buffer.removeSubrange(0..<start)
            start = 0
        }
        while buffer.count - start < count {
            let read = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            guard read > 0 else { return false }
            buffer += chunk[0..<read]
        }
        return true
    }
}
