@testable import GPSDPlugin
import SwitchyardBus
import Testing

/// Turning lines into emitted actions: device filter, satellites rate limit, complaints.
struct GPSDFeedTranslatorTests {
    private func line(_ text: String) -> GPSDLine { GPSDLine(parsing: Array(text.utf8)) }

    private func events(_ outputs: [GPSDFeedTranslator.Output]) -> [String] {
        outputs.compactMap { output in
            if case .emit(let event, _) = output { return event }
            return nil
        }
    }

    /// SKY summaries are limited by receive time, whatever time the reports carry.
    @Test func satellitesAreLimitedByReceiveTime() {
        // SKY summaries are limited by receive time, whatever time the reports carry (the
        // 1024-week shift makes old captures read years ahead, and time can jump back).
        var translator = GPSDFeedTranslator(device: nil, satellitesInterval: .seconds(5))
        let reports = [
            "{\"class\":\"SKY\",\"time\":\"2035-05-26T09:12:32.000Z\",\"nSat\":12}",
            "{\"class\":\"SKY\",\"time\":\"2035-05-26T09:12:40.000Z\",\"nSat\":12}",
            "{\"class\":\"SKY\",\"time\":\"2015-05-26T09:12:41.000Z\",\"nSat\":12}",
            "{\"class\":\"SKY\",\"nSat\":11}",
        ]
        let arrivals: [Duration] = [.zero, .seconds(1), .seconds(5), .seconds(6)]
        let emitted = zip(reports, arrivals).map { events(translator.translate(line($0), at: $1)) }
        #expect(emitted == [["satellites"], [], ["satellites"], []])
    }

    /// Every TPV becomes a fix, duplicates and no-fix reports included.
    @Test func everyFixIsEmitted() {
        // Every TPV becomes a fix, duplicates and no-fix reports included: filtering is the
        // location emitter's job.
        var translator = GPSDFeedTranslator(device: nil, satellitesInterval: .seconds(5))
        let fix = "{\"class\":\"TPV\",\"mode\":1}"
        #expect(events(translator.translate(line(fix), at: .zero)) == ["fix"])
        #expect(events(translator.translate(line(fix), at: .zero)) == ["fix"])
    }

    /// With a configured device, other devices' reports are dropped and unnamed ones kept.
    @Test func deviceFilter() {
        // With a device configured, reports from other devices are dropped; reports that name no
        // device are kept.
        var translator = GPSDFeedTranslator(device: "/dev/ttyUSB0", satellitesInterval: .zero)
        #expect(events(translator.translate(line("{\"class\":\"TPV\",\"device\":\"/dev/ttyS0\",\"mode\":3}"), at: .zero)) == [])
        #expect(events(translator.translate(line("{\"class\":\"TPV\",\"device\":\"/dev/ttyUSB0\",\"mode\":3}"), at: .zero)) == ["fix"])
        #expect(events(translator.translate(line("{\"class\":\"TPV\",\"mode\":3}"), at: .zero)) == ["fix"])
        #expect(events(translator.translate(line("{\"class\":\"SKY\",\"device\":\"/dev/ttyS0\"}"), at: .zero)) == [])
        let devices = "{\"class\":\"DEVICES\",\"devices\":[{\"path\":\"/dev/ttyS0\"},{\"path\":\"/dev/ttyUSB0\"}]}"
        #expect(translator.translate(line(devices), at: .zero) == [
            .emit(event: "device", payload: ["path": "/dev/ttyUSB0", "active": true])
        ])
    }

    /// VERSION is remembered for status payloads and logged; ERROR is logged as a warning.
    @Test func versionAndError() {
        var translator = GPSDFeedTranslator(device: nil, satellitesInterval: .zero)
        let version = "{\"class\":\"VERSION\",\"release\":\"3.22\",\"proto_major\":3,\"proto_minor\":14}"
        #expect(translator.translate(line(version), at: .zero) == [.info("gpsd 3.22, protocol 3.14")])
        #expect(translator.gpsdRelease == "3.22")
        #expect(translator.translate(line("{\"class\":\"ERROR\",\"message\":\"Unrecognized request\"}"), at: .zero)
            == [.warning("gpsd: Unrecognized request")])
    }

    /// Unusable lines are all counted but complained about at most once a minute.
    @Test func complaintsAreRateLimited() {
        var translator = GPSDFeedTranslator(device: nil, satellitesInterval: .zero)
        #expect(translator.translate(line("$GPGGA,,"), at: .zero) == [.warning("skipped a line that is not JSON; 1 unusable line(s) so far")])
        #expect(translator.translate(line("{\"class\""), at: .seconds(1)) == [])
        #expect(translator.discardedLine(byteCount: 300_000, at: .seconds(2)) == [])
        #expect(translator.translate(line("{}"), at: .seconds(60)) == [
            .warning("skipped a report without a \"class\" string; 4 unusable line(s) so far")
        ])
        #expect(translator.translate(line("{\"class\":\"AIS\"}"), at: .seconds(61)) == [])
        #expect(translator.unusableLines == 4)
    }
}
