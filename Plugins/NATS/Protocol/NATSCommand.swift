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
            appendDecimal(headers.count, to: &output)
        }
        output.append(UInt8(ascii: " "))
        appendDecimal(headers.count + payload.count, to: &output)
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

    /// Appends the decimal digits of a non-negative `value`, without a temporary array.
    static func appendDecimal(_ value: Int, to output: inout [UInt8]) {
        var divisor = 1
        while divisor <= value / 10 { divisor *= 10 }
        var rest = max(value, 0)
        while divisor > 0 {
            output.append(UInt8(ascii: "0") + UInt8(rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }
}
