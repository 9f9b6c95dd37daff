import Foundation
@testable import GPSDPlugin
import SwitchyardBus
import Testing

/// Parsing gpsd's lines into reports, with every odd case found in the real captures.
struct GPSDLineTests {
    static let captures = [
        "ait250.log", "april6_2019.log", "bt451.log", "bu353s4.log", "com-1289.log", "eXplorist110.log",
        "gp-320fw-2019-04-07-coldboot.log", "magellan-ec10.log", "nl2008u.log", "skytraq.log", "triton400.log",
    ]

    private func parse(_ text: String) -> GPSDLine {
        GPSDLine(parsing: Array(text.utf8))
    }

    private func fix(_ text: String) -> GPSDFix? {
        if case .report(.fix(let fix)) = parse(text) { return fix }
        return nil
    }

    private func sky(_ text: String) -> GPSDSky? {
        if case .report(.sky(let sky)) = parse(text) { return sky }
        return nil
    }

    /// Every TPV in a capture's .chk parses as a fix with gpsd's mode and, when present, position.
    @Test(arguments: captures)
    func everyCheckedFixParses(capture: String) throws {
        for line in try Fixtures.checkReports(capture) where line.contains("\"class\":\"TPV\"") {
            let expected = try JSON(parsing: line)
            let parsed = try #require(fix(line), "not a fix: \(line)")
            #expect(parsed.mode == expected["mode"]?.intValue)
            #expect(parsed.latitude == expected["lat"]?.doubleValue)
            #expect(parsed.longitude == expected["lon"]?.doubleValue)
            #expect(parsed.time == expected["time"]?.stringValue)
            #expect(parsed.payload["eph"] == expected["eph"].map { .number($0.doubleValue ?? .nan) })
        }
    }

    /// Every SKY in a capture's .chk parses, with counts from gpsd or from the satellite list.
    @Test(arguments: captures)
    func everyCheckedSkyParses(capture: String) throws {
        for line in try Fixtures.checkReports(capture) where line.contains("\"class\":\"SKY\"") {
            let expected = try JSON(parsing: line)
            let parsed = try #require(sky(line), "not a sky report: \(line)")
            let satellites = expected["satellites"]?.arrayValue ?? []
            #expect(parsed.visible == expected["nSat"]?.intValue ?? (satellites.isEmpty ? nil : satellites.count))
            #expect(parsed.hdop == expected["hdop"]?.doubleValue)
        }
    }

    /// Classes the plugin has no use for (AIS, GST from the captures) are ignored by name.
    @Test(arguments: ["ait250.log", "skytraq.log"])
    func otherClassesAreIgnored(capture: String) throws {
        let others = try Fixtures.checkReports(capture).filter {
            $0.contains("\"class\":\"AIS\"") || $0.contains("\"class\":\"GST\"")
        }
        #expect(!others.isEmpty)
        for line in others {
            guard case .ignored(let className) = parse(line) else {
                Issue.record("not ignored: \(line)")
                continue
            }
            #expect(className == "AIS" || className == "GST")
        }
    }

    /// NMEA and garbage from the captures are not JSON and are set aside, not thrown.
    @Test(arguments: [
        "$GPGGA,030719.000,3747.0873,S,17518.8938,E,1,08,1.1,59.9,M,23.7,M,,0000*7D",
        "\u{0}\u{0}\u{0}$GPRMC,",
        "",
        "   ",
        "[1,2,3]",
        "# comment",
    ])
    func nonJSONLinesAreSetAside(line: String) {
        #expect(parse(line) == .notJSON)
    }

    /// Broken JSON, non-objects and objects without a class are malformed, with a reason.
    @Test(arguments: [
        "{\"class\":\"TPV\",\"mode\":3,\"lat\":",
        "{\"class\":\"TPV\"\u{0},\"mode\":3}",
        "{\"mode\":3}",
        "{\"class\":3}",
    ])
    func malformedLinesGiveAReason(line: String) {
        guard case .malformed(let reason) = parse(line) else {
            Issue.record("not malformed: \(line)")
            return
        }
        #expect(!reason.isEmpty)
    }

    /// A mode-3 TPV without a position (com-1289) keeps its mode and error estimates.
    @Test func modeThreeWithoutPosition() throws {
        let parsed = try #require(fix("{\"class\":\"TPV\",\"mode\":3,\"epv\":27.600,\"eph\":20.900,\"sep\":32.300}"))
        #expect(parsed.mode == 3)
        #expect(parsed.latitude == nil && parsed.longitude == nil)
        #expect(parsed.payload == ["mode": 3, "eph": 20.9, "epv": 27.6])
    }

    /// A TPV with only a mode, and one with no mode at all, parse with nothing else set.
    @Test func bareFixes() throws {
        #expect(try #require(fix("{\"class\":\"TPV\",\"mode\":1}")).payload == ["mode": 1])
        #expect(try #require(fix("{\"class\":\"TPV\"}")).mode == 0)
    }

    /// Fields of the wrong type or out of range count as missing; a lone coordinate is dropped.
    @Test(arguments: [
        "{\"class\":\"TPV\",\"mode\":\"3\",\"lat\":\"48.1\",\"lon\":11.5}",
        "{\"class\":\"TPV\",\"mode\":7,\"lat\":91.0,\"lon\":11.5}",
        "{\"class\":\"TPV\",\"mode\":-1,\"lat\":48.1,\"lon\":181}",
        "{\"class\":\"TPV\",\"mode\":null,\"lat\":48.1}",
    ])
    func nonsenseFieldsCountAsMissing(line: String) throws {
        let parsed = try #require(fix(line))
        #expect(parsed.mode == 0)
        #expect(parsed.latitude == nil && parsed.longitude == nil)
    }

    /// `alt` (older gpsd) stands in for `altMSL`; `epx`/`epy` pass through when `eph` is absent.
    @Test func olderAndPartialFields() throws {
        let parsed = try #require(fix(
            "{\"class\":\"TPV\",\"mode\":2,\"lat\":52.7,\"lon\":5.29,\"alt\":12.5,\"epx\":1.9,\"epy\":3.0}"))
        #expect(parsed.altitudeMSL == 12.5)
        #expect(parsed.payload["eph"] == nil)
        #expect(parsed.payload["epx"] == 1.9)
        #expect(parsed.payload["epy"] == 3.0)
    }

    /// A SKY line over 3 KB (many satellites, as multi-constellation receivers report) parses.
    @Test func largeSkyReport() throws {
        let satellites = (1...48).map { prn in
            "{\"PRN\":\(prn),\"el\":\(prn % 90).0,\"az\":\(prn * 7 % 360).0,\"ss\":\(20 + prn % 30).0,"
                + "\"used\":\(prn % 3 == 0),\"gnssid\":\(prn % 4),\"svid\":\(prn)}"
        }
        let line = "{\"class\":\"SKY\",\"device\":\"/dev/ttyACM0\",\"hdop\":0.62,\"satellites\":["
            + satellites.joined(separator: ",") + "]}"
        #expect(line.utf8.count > 3 * 1024)
        let parsed = try #require(sky(line))
        #expect(parsed.visible == 48)
        #expect(parsed.used == 16)
        #expect(parsed.meanUsedSignal != nil)
    }

    /// A SKY with only dilutions and no satellite list leaves the counts unknown.
    @Test func skyWithoutSatellites() throws {
        let parsed = try #require(sky("{\"class\":\"SKY\",\"vdop\":2.30,\"hdop\":0.00,\"pdop\":2.70}"))
        #expect(parsed.visible == nil && parsed.used == nil)
        #expect(parsed.summaryPayload == ["vdop": 2.3, "hdop": 0.0, "pdop": 2.7])
    }

    /// DEVICE's `activated` is a time when open, 0 when gone, absent when unknown.
    @Test(arguments: [
        ("{\"class\":\"DEVICE\",\"path\":\"/dev/pts/1\",\"activated\":\"2026-11-22T04:36:20.103Z\"}", true),
        ("{\"class\":\"DEVICE\",\"path\":\"/dev/pts/1\",\"activated\":0}", false),
        ("{\"class\":\"DEVICE\",\"path\":\"/dev/pts/1\"}", nil),
    ] as [(String, Bool?)])
    func deviceActivation(line: String, active: Bool?) {
        guard case .report(.device(let device)) = parse(line) else {
            Issue.record("not a device: \(line)")
            return
        }
        #expect(device.path == "/dev/pts/1")
        #expect(device.isActive == active)
    }

    /// VERSION, DEVICES, WATCH and ERROR as gpsd 3.22 sends them.
    @Test func sessionReports() {
        #expect(
            parse("{\"class\":\"VERSION\",\"release\":\"3.22\",\"rev\":\"3.22\",\"proto_major\":3,\"proto_minor\":14}\r")
                == .report(.version(GPSDVersion(["release": "3.22", "proto_major": 3, "proto_minor": 14]))))
        #expect(parse("{\"class\":\"DEVICES\",\"devices\":[]}") == .report(.devices([])))
        guard case .report(.devices(let devices)) = parse(
            "{\"class\":\"DEVICES\",\"devices\":[{\"class\":\"DEVICE\",\"path\":\"/dev/pts/1\",\"driver\":\"NMEA0183\",\"bps\":4800},7]}")
        else {
            Issue.record("DEVICES not parsed")
            return
        }
        #expect(devices.map(\.path) == ["/dev/pts/1"])
        #expect(devices.first?.driver == "NMEA0183")
        #expect(parse("{\"class\":\"WATCH\",\"enable\":true,\"json\":true}") == .report(.watch(GPSDWatch(["enable": true]))))
        #expect(parse("{\"class\":\"ERROR\",\"message\":\"No such device as /dev/x\"}") == .report(.error(message: "No such device as /dev/x")))
    }

    /// The watch command, with and without a device (JSON-escaped).
    @Test func watchCommand() {
        #expect(String(decoding: GPSDWatchCommand.bytes(device: nil), as: UTF8.self) == "?WATCH={\"enable\":true,\"json\":true};\n")
        #expect(
            String(decoding: GPSDWatchCommand.bytes(device: "/dev/gps\"0"), as: UTF8.self)
                == "?WATCH={\"enable\":true,\"json\":true,\"device\":\"/dev/gps\\\"0\"};\n")
    }
}

/// gpsd 3.22 repeats a member name in its reports; RFC 8259 allows it and the last one wins.
struct GPSDRepeatedMemberTests {
    /// A `LOG` report as gpsd 3.22 writes it, `"tAcc"` twice: ignored by class, not "not valid JSON".
    @Test func logReportWithRepeatedMemberIsNotMalformed() {
        let line = #"{"class":"LOG","device":"/dev/ttyACM0","tAcc":20,"lat":-41.28,"tAcc":21}"#
        guard case .ignored(let className) = GPSDLine(parsing: Array(line.utf8)) else {
            Issue.record("not ignored: \(GPSDLine(parsing: Array(line.utf8)))")
            return
        }
        #expect(className == "LOG")
    }

    /// A TPV with a repeated member is a fix, not lost whole.
    @Test func fixWithRepeatedMemberIsKept() throws {
        let line = #"{"class":"TPV","mode":3,"time":"2026-11-22T09:00:00.000Z","lat":-41.28,"lon":174.77,"eph":9.0,"eph":8.5}"#
        guard case .report(.fix(let fix)) = GPSDLine(parsing: Array(line.utf8)) else {
            Issue.record("not a fix: \(GPSDLine(parsing: Array(line.utf8)))")
            return
        }
        #expect(fix.latitude == -41.28 && fix.longitude == 174.77)
        #expect(fix.payload["eph"] == 8.5)
    }
}
