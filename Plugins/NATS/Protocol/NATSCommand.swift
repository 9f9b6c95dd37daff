import Switchyard

/// The operations a client sends, encoded as the text protocol wants them.
///
/// Each function appends to a byte buffer, so a batch of publishes is built without
/// intermediate arrays.
enum NATSCommand {
    /// `PING\r\n`.
    static let ping = Array("PING\r\n".utf8)
    /// `PONG\r\n`.
    static let pong = Array("PONG\r\n".utf8)

    /// `CONNECT {...}\r\n`.
    static func connect(_ options: NATSConnectOptions, into output: inout [UInt8]) {
        output.append(contentsOf: "CONNECT ".utf8)
        options.json.serialize(into: &output)
        output.append(contentsOf: "\r\n".utf8)
    }

    /// `PUB subject [reply] size\r\npayload\r\n`, or `HPUB` with `headers` (encoded with
    /// ``NATSHeaders/encoded``) when there are any.
    static func publish(subject: String, replyTo: String? = nil, headers: [UInt8] = [], payload: some Collection<UInt8>, into output: inout [UInt8]) {
        output.append(contentsOf: (headers.isEmpty ? "PUB " : "HPUB ").utf8)
        output.append(contentsOf: subject.utf8)
        if let replyTo {
            output.append(UInt8(ascii: " "))
            output.append(contentsOf: replyTo.utf8)
        }
        if !headers.isEmpty {
            output.append(UInt8(ascii: " "))
            appendDecimal(UInt64(headers.count), to: &output)
        }
        output.append(UInt8(ascii: " "))
        appendDecimal(UInt64(headers.count + payload.count), to: &output)
        output.append(contentsOf: "\r\n".utf8)
        output.append(contentsOf: headers)
        output.append(contentsOf: payload)
        output.append(contentsOf: "\r\n".utf8)
    }

    /// `SUB subject sid\r\n`.
    static func subscribe(subject: String, sid: String, into output: inout [UInt8]) {
        output.append(contentsOf: "SUB \(subject) \(sid)\r\n".utf8)
    }

    /// `UNSUB sid\r\n`.
    static func unsubscribe(sid: String, into output: inout [UInt8]) {
        output.append(contentsOf: "UNSUB \(sid)\r\n".utf8)
    }

    /// Appends the decimal digits of `value`, without a temporary array or string: the one
    /// decimal writer of the protocol, the forward encoder's per-action ids included.
    static func appendDecimal(_ value: UInt64, to output: inout [UInt8]) {
        var digits: (UInt64, Int) = (1, 1)
        while digits.0 <= value / 10 { digits = (digits.0 * 10, digits.1 + 1) }
        var rest = value
        var unit = digits.0
        for _ in 0..<digits.1 {
            output.append(UInt8(ascii: "0") + UInt8(rest / unit))
            rest %= unit
            unit /= 10
        }
    }
}
