import SwitchyardBus

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
        publish(subject: subject, headers: headers, payload: payload, into: &output) { output in
            guard let replyTo else { return }
            output.append(UInt8(ascii: " "))
            output.append(contentsOf: replyTo.utf8)
        }
    }

    /// The same operation with the reply subject `<replyPrefix><number>` (a JetStream
    /// acknowledgement inbox per action), written without making it a string first.
    static func publish(subject: String, replyPrefix: [UInt8], number: UInt64, headers: [UInt8], payload: some Collection<UInt8>, into output: inout [UInt8]) {
        publish(subject: subject, headers: headers, payload: payload, into: &output) { output in
            output.append(UInt8(ascii: " "))
            output.append(contentsOf: replyPrefix)
            LineBytes.appendDecimal(number, to: &output)
        }
    }

    private static func publish(subject: String, headers: [UInt8], payload: some Collection<UInt8>, into output: inout [UInt8],
                                reply: (inout [UInt8]) -> Void) {
        // A fresh buffer gets room for the whole operation at once (the reply fits in 128 bytes);
        // one already holding operations grows by doubling, as reserving exactly each time
        // would copy it for every operation added.
        if output.isEmpty { output.reserveCapacity(subject.utf8.count + headers.count + payload.count + 128) }
        output.append(contentsOf: (headers.isEmpty ? "PUB " : "HPUB ").utf8)
        LineBytes.append(subject, to: &output)
        reply(&output)
        if !headers.isEmpty {
            output.append(UInt8(ascii: " "))
            LineBytes.appendDecimal(UInt64(headers.count), to: &output)
        }
        output.append(UInt8(ascii: " "))
        LineBytes.appendDecimal(UInt64(headers.count + payload.count), to: &output)
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
}
