import SwitchyardBus

/// The `?WATCH` command sent on every (re)connect: JSON reports, optionally for one device.
enum GPSDWatchCommand {
    /// `?WATCH={"enable":true,"json":true};` — with `,"device":PATH` inside the braces when
    /// `device` is set — and a newline, as UTF-8 bytes. The path is JSON-escaped.
    static func bytes(device: String?) -> [UInt8] {
        var policy = "{\"enable\":true,\"json\":true"
        if let device { policy += ",\"device\":" + JSON.string(device).serialized() }
        return Array("?WATCH=\(policy)};\n".utf8)
    }
}
