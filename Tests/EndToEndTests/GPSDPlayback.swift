import Foundation
import SwitchyardTestSupport
import Testing

extension RunningBus {
    /// Lets a held gpsfake (``GPSDProcess/gpsfakeWithDevice(capture:cycle:once:attempts:port:)``)
    /// play its capture once the bus's gpsd plugin `plugin` watches it: a capture played once
    /// takes seconds, and a bus that starts slowly on a loaded machine would otherwise connect
    /// after its last fix. Watching shows as `connected`, or as `no-device` while gpsd has not
    /// opened the device it lists (it is announced once data flows), so both count. Records an
    /// issue with the plugin's last state, the bus's log and gpsfake's when it never watches,
    /// and plays the capture anyway.
    func play(_ gpsd: GPSDProcess, plugin: String = "gps") async throws {
        var lastState = ""
        let watching = try await eventually(timeout: .seconds(60), interval: .milliseconds(100)) {
            lastState = try await client(["state", plugin, "--json"]).stdout
            return ["connected", "no-device"].contains(object(lastState)["status"] as? String)
        }
        // The plugin's state and the bus's log say which step failed (connecting, stale before
        // the first look, a lost connection).
        #expect(watching, "the gpsd plugin never watched; last state: \(lastState)\nbus: \(process.stderr.suffix(3000))\ngpsd: \(gpsd.log.prefix(2000))")
        gpsd.release()
    }
}
