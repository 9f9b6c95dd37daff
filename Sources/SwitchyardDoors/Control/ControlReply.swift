/// The lines the control server sends, each a JSON object with `"ok"` and a newline.
enum ControlReply {
    static func line(_ value: JSON) -> [UInt8] {
        var bytes: [UInt8] = []
        value.serialize(into: &bytes)
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }

    static func error(_ error: ControlError) -> [UInt8] {
        line(error.json)
    }

    /// `{"id":N,"ok":true}`: the action was reduced as sequence number N. Written by hand:
    /// it is the reply to every dispatch.
    static func dispatched(_ id: UInt64) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(40)
        appendDispatched(id, to: &bytes)
        return bytes
    }

    /// Appends the reply ``dispatched(_:)`` gives, straight into the outbox's buffer.
    static func appendDispatched(_ id: UInt64, to bytes: inout [UInt8]) {
        // With one append (see ``LineScratch``): 6 + 20 + 11 bytes at most.
        LineScratch.append(capacity: 40, to: &bytes) { line in
            line.append(#"{"id":"#)
            line.appendDecimal(id)
            line.append(",\"ok\":true}\n")
            return true
        }
    }

    /// `{"id":N,"ok":true,"recorded":M,"type":"..."}`: a step let the recorded action M
    /// through, and it was reduced as N.
    static func stepped(recorded: UInt64, type: String, id: UInt64) -> [UInt8] {
        line(["ok": true, "id": .integer(Int64(clamping: id)), "recorded": .integer(Int64(clamping: recorded)), "type": .string(type)])
    }

    /// `{"ok":true,"state":...}`.
    static func state(_ value: JSON) -> [UInt8] {
        line(["ok": true, "state": value])
    }

    /// `{"ok":true,"stats":{...}}`.
    static func statistics(_ value: JSON) -> [UInt8] {
        line(["ok": true, "stats": value])
    }

    /// `{"ok":true,"watching":{"actions":"gps/*","state":"location"}}`: the stream begins.
    static func watching(actions: TypePattern?, state: String?) -> [UInt8] {
        var watching: [String: JSON] = [:]
        if let actions { watching["actions"] = .string(actions.description) }
        if let state { watching["state"] = .string(state) }
        return line(["ok": true, "watching": .object(watching)])
    }

    /// `{"action":{...},"ok":true}`: one streamed action, its object copied from where the
    /// bus wrote it once.
    static func action(_ line: ActionLine, into bytes: inout [UInt8]) {
        // A usual object goes in with its envelope in one append (see ``LineScratch``); a large
        // one is not copied twice.
        let length = line.objectLength
        if length <= 4096 {
            LineScratch.append(capacity: length + 22, to: &bytes) { scratch in
                scratch.append(#"{"action":"#)
                line.withObject { scratch.append($0) }
                scratch.append(",\"ok\":true}\n")
                return true
            }
            return
        }
        LineBytes.append(#"{"action":"#, to: &bytes)
        line.appendObject(to: &bytes)
        LineBytes.append(",\"ok\":true}\n", to: &bytes)
    }

    /// `{"ok":true,"path":"location","state":...}`: the watched state changed.
    static func stateChange(path: String, value: JSON) -> [UInt8] {
        line(["ok": true, "path": .string(path), "state": value])
    }
}
