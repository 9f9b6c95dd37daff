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
        LineBytes.append(#"{"id":"#, to: &bytes)
        LineBytes.appendDecimal(id, to: &bytes)
        LineBytes.append(",\"ok\":true}\n", to: &bytes)
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
        LineBytes.append(#"{"action":"#, to: &bytes)
        line.appendObject(to: &bytes)
        LineBytes.append(",\"ok\":true}\n", to: &bytes)
    }

    /// `{"ok":true,"path":"location","state":...}`: the watched state changed.
    static func stateChange(path: String, value: JSON) -> [UInt8] {
        line(["ok": true, "path": .string(path), "state": value])
    }
}
