@testable import GPSDPlugin
import SwitchyardBus
import Testing

/// The connection state machine: status, device tracking, watchdog and backoff, without I/O.
struct GPSDConnectionStateMachineTests {
    typealias Machine = GPSDConnectionStateMachine

    private static let configuration = Machine.Configuration(
        backoff: ReconnectBackoff(initial: .seconds(1), maximum: .seconds(4)), staleAfter: .seconds(10), device: nil)

    private func line(_ text: String) -> GPSDLine { GPSDLine(parsing: Array(text.utf8)) }
    private let devicesPresent = "{\"class\":\"DEVICES\",\"devices\":[{\"class\":\"DEVICE\",\"path\":\"/dev/ttyUSB0\"}]}"
    private let devicesNone = "{\"class\":\"DEVICES\",\"devices\":[]}"
    private let deviceGone = "{\"class\":\"DEVICE\",\"path\":\"/dev/ttyUSB0\",\"activated\":0}"
    private let deviceBack = "{\"class\":\"DEVICE\",\"path\":\"/dev/ttyUSB0\",\"activated\":\"2026-11-22T04:36:20.103Z\"}"
    private let fix = "{\"class\":\"TPV\",\"device\":\"/dev/ttyUSB0\",\"mode\":3,\"lat\":1.0,\"lon\":2.0}"

    private func status(_ status: GPSDStatus, _ reason: String? = nil, retryIn: Duration? = nil) -> Machine.Action {
        .report(GPSDStatusReport(status: status, reason: reason, retryIn: retryIn))
    }

    private func connected(_ configuration: Machine.Configuration = configuration) -> Machine {
        var machine = Machine(configuration: configuration)
        _ = machine.start(at: .zero)
        _ = machine.connectionEstablished(at: .zero)
        _ = machine.received(line(devicesPresent), at: .zero)
        return machine
    }

    /// Starting connects; the open connection watches; the status waits for gpsd's device list.
    @Test func startConnectsAndWatches() {
        var machine = Machine(configuration: Self.configuration)
        #expect(machine.start(at: .zero) == [status(.connecting), .connect])
        #expect(machine.connectionEstablished(at: .zero) == [.sendWatch])
        #expect(machine.received(line("{\"class\":\"VERSION\",\"release\":\"3.22\"}"), at: .zero) == [])
        #expect(machine.received(line(devicesPresent), at: .zero) == [status(.connected)])
        #expect(machine.received(line(fix), at: .seconds(1)) == [])
    }

    /// An empty device list is `no-device`; a device appearing makes it `connected`.
    @Test func noDeviceUntilOneAppears() {
        var machine = Machine(configuration: Self.configuration)
        _ = machine.start(at: .zero)
        _ = machine.connectionEstablished(at: .zero)
        #expect(machine.received(line(devicesNone), at: .zero) == [status(.noDevice, "gpsd has no device")])
        #expect(machine.received(line(deviceBack), at: .seconds(1)) == [status(.connected)])
        #expect(machine.received(line(deviceGone), at: .seconds(2)) == [status(.noDevice, "gpsd has no device")])
    }

    /// A watch acknowledged without a device list counts as connected.
    @Test func watchAcknowledgementAlone() {
        var machine = Machine(configuration: Self.configuration)
        _ = machine.start(at: .zero)
        _ = machine.connectionEstablished(at: .zero)
        #expect(machine.received(line("{\"class\":\"WATCH\",\"enable\":true}"), at: .zero) == [status(.connected)])
    }

    /// Silence for `staleAfter` marks the feed stale once; the next line clears it.
    @Test func watchdogMarksStaleAndRecovers() {
        var machine = connected()
        #expect(machine.tick(at: .seconds(9.99)) == [])
        #expect(machine.tick(at: .seconds(10)) == [status(.stale, "nothing from gpsd for 10.0 seconds")])
        #expect(machine.tick(at: .seconds(30)) == [])
        #expect(machine.received(line("garbage"), at: .seconds(31)) == [status(.connected)])
        #expect(machine.tick(at: .seconds(40)) == [])
        #expect(machine.tick(at: .seconds(41)) == [status(.stale, "nothing from gpsd for 10.0 seconds")])
    }

    /// Without a device, silence is expected: no stale.
    @Test func noStaleWithoutDevice() {
        var machine = Machine(configuration: Self.configuration)
        _ = machine.start(at: .zero)
        _ = machine.connectionEstablished(at: .zero)
        _ = machine.received(line(devicesNone), at: .zero)
        #expect(machine.tick(at: .seconds(100)) == [])
    }

    /// A connection that opens but never speaks also goes stale.
    @Test func silentDaemonGoesStale() {
        var machine = Machine(configuration: Self.configuration)
        _ = machine.start(at: .zero)
        _ = machine.connectionEstablished(at: .zero)
        #expect(machine.tick(at: .seconds(10)) == [status(.stale, "nothing from gpsd for 10.0 seconds")])
    }

    /// Failed attempts back off exponentially up to the cap; each retry reports connecting.
    @Test func failuresBackOff() {
        var machine = Machine(configuration: Self.configuration)
        _ = machine.start(at: .zero)
        var delays: [Duration] = []
        for _ in 0..<5 {
            let actions = machine.connectionLost("refused", at: .zero)
            guard case .reconnect(let delay) = actions.last else {
                Issue.record("no reconnect in \(actions)")
                return
            }
            #expect(actions.first == status(.disconnected, "refused", retryIn: delay))
            delays.append(delay)
            #expect(machine.reconnectDue(at: .zero) == [status(.connecting), .connect])
        }
        #expect(delays == [.seconds(1), .seconds(2), .seconds(4), .seconds(4), .seconds(4)])
    }

    /// After a connection on which gpsd spoke, the backoff starts over.
    @Test func backoffResetsAfterData() {
        var machine = Machine(configuration: Self.configuration)
        _ = machine.start(at: .zero)
        _ = machine.connectionLost("refused", at: .zero)
        _ = machine.reconnectDue(at: .zero)
        _ = machine.connectionLost("refused", at: .zero)
        _ = machine.reconnectDue(at: .zero)
        _ = machine.connectionEstablished(at: .zero)
        _ = machine.received(line(devicesPresent), at: .zero)
        #expect(machine.connectionLost("closed", at: .zero).last == .reconnect(after: .seconds(1)))
    }

    /// A connection that opens and closes without a word keeps backing off.
    @Test func silentConnectionsKeepBackingOff() {
        var machine = Machine(configuration: Self.configuration)
        _ = machine.start(at: .zero)
        _ = machine.connectionEstablished(at: .zero)
        #expect(machine.connectionLost("closed", at: .zero).last == .reconnect(after: .seconds(1)))
        _ = machine.reconnectDue(at: .zero)
        _ = machine.connectionEstablished(at: .zero)
        #expect(machine.connectionLost("closed", at: .zero).last == .reconnect(after: .seconds(2)))
    }

    /// Events that do not fit the state are ignored.
    @Test func outOfOrderEventsAreIgnored() {
        var machine = Machine(configuration: Self.configuration)
        #expect(machine.connectionEstablished(at: .zero) == [])
        #expect(machine.received(line(fix), at: .zero) == [])
        #expect(machine.connectionLost("x", at: .zero) == [])
        #expect(machine.reconnectDue(at: .zero) == [])
        _ = machine.start(at: .zero)
        #expect(machine.start(at: .zero) == [])
        #expect(machine.reconnectDue(at: .zero) == [])
        #expect(machine.tick(at: .seconds(100)) == [])
    }

    /// With a configured device, other devices do not count and a refused watch is sent again.
    @Test func configuredDevice() {
        // With one device configured, other devices do not count, and a refused watch is repeated
        // when the device appears.
        var configuration = Self.configuration
        configuration.device = "/dev/ttyUSB0"
        var machine = Machine(configuration: configuration)
        _ = machine.start(at: .zero)
        _ = machine.connectionEstablished(at: .zero)
        #expect(
            machine.received(line("{\"class\":\"ERROR\",\"message\":\"No such device as /dev/ttyUSB0\"}"), at: .zero)
                == [status(.noDevice, "gpsd does not have /dev/ttyUSB0")])
        #expect(machine.received(line("{\"class\":\"DEVICE\",\"path\":\"/dev/ttyS0\",\"activated\":\"x\"}"), at: .zero) == [])
        #expect(machine.received(line(deviceBack), at: .zero) == [.sendWatch, status(.connected)])
        #expect(machine.received(line(deviceBack), at: .zero) == [])
    }

    /// Data from a device proves it exists even when the list said none.
    @Test func dataProvesADevice() {
        var machine = Machine(configuration: Self.configuration)
        _ = machine.start(at: .zero)
        _ = machine.connectionEstablished(at: .zero)
        _ = machine.received(line(devicesNone), at: .zero)
        #expect(machine.received(line(fix), at: .zero) == [status(.connected)])
    }
}
