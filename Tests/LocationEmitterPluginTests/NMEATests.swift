import Foundation
@testable import LocationEmitterPlugin
import SwitchyardBus
import Testing

/// NMEA sentences (checksums, fields) and whole logs read into epochs.
struct NMEATests {
    /// Valid sentences from the captures parse, garbage before `$` included.
    @Test(arguments: [
        ("$GPRMC,030719.000,A,3747.0873,S,17518.8938,E,0.69,181.39,311214,,,A*7D", "RMC", 12),
        ("$GPGGA,030719.000,3747.0873,S,17518.8938,E,1,08,1.1,59.9,M,23.7,M,,0000*7D\r", "GGA", 14),
        ("\u{0}\u{0}\u{0}$GPGSA,A,3,17,28,06,01,30,20,26,13,,,,,1.8,1.1,1.5*33", "GSA", 17),
        ("$GPGGA,0307$GPRMC,030719.000,A,3747.0873,S,17518.8938,E,0.69,181.39,311214,,,A*7d  ", "RMC", 12),
    ])
    func validSentences(line: String, type: String, fieldCount: Int) throws {
        let sentence = try #require(try NMEASentence(line[...]))
        #expect(sentence.type[...] == type[...])
        #expect(sentence.talker == "GP")
        #expect(sentence.fields.count == fieldCount)
    }

    /// Bad and missing checksums are errors that say what is wrong.
    @Test(arguments: [
        ("$GPRMC,030719.000,A,3747.0873,S,17518.8938,E,0.69,181.39,311214,,,A*7C", "checksum 7C should be 7D"),
        ("$GPRMC,030719.000,A,3747.0873,S,17518.8938,E,0.69,181.39,311214,,,A", "no *hh checksum"),
        ("$GPRMC,030719.000,A*7", "no *hh checksum"),
        ("$GPRMC,030719.000,A*ZZ", "no *hh checksum"),
    ])
    func badChecksums(line: String, message: String) {
        #expect {
            _ = try NMEASentence(line[...])
        } throws: { error in
            (error as? NMEASentence.Problem)?.description == message
        }
    }

    /// Lines without a sentence are not errors.
    @Test(arguments: ["", "# Name: GlobalSat BU-353-S4", "garbage"])
    func notSentences(line: String) throws {
        #expect(try NMEASentence(line[...]) == nil)
    }

    /// Coordinates read as degrees and minutes, signed by hemisphere; nonsense is rejected.
    @Test func coordinates() throws {
        let sentence = try #require(try NMEASentence("$GPGGA,030719.000,3747.0873,S,17518.8938,E,1,08,1.1,59.9,M,23.7,M,,0000*7D"[...]))
        #expect(abs(try #require(sentence.coordinateValue(at: 1, degreeDigits: 2)) - -37.784788333) < 1e-9)
        #expect(abs(try #require(sentence.coordinateValue(at: 3, degreeDigits: 3)) - 175.314896667) < 1e-9)
        #expect(sentence.timeOfDay(at: 0) == 11_239.0)
        let bad = try #require(try NMEASentence("$GPGGA,2560,3761.0,X,,E*7F".withChecksum[...]))
        #expect(bad.coordinateValue(at: 1, degreeDigits: 2) == nil)
        #expect(bad.coordinateValue(at: 3, degreeDigits: 3) == nil)
        #expect(bad.timeOfDay(at: 0) == nil)
    }

    /// bu353s4: 25 dated 3D epochs near Hamilton, without gpsd's 1024-week shift.
    @Test func cleanCapture() throws {
        // bu353s4: 25 epochs (gpsd reports 27 TPVs for them), every one a 3D fix near Hamilton (37.8°S 175.3°E), dated 2014-12-31 (no
        // 1024-week shift: that is gpsd's doing, not the log's).
        let result = NMEAReader.read(try String(contentsOfFile: Fixtures.capture("bu353s4.log"), encoding: .utf8))
        #expect(result.rejectedSentences == 0)
        #expect(result.samples.count == 25)
        let first = try #require(result.samples.first)
        #expect(first.sample.mode == 3)
        #expect(abs(try #require(first.sample.coordinate?.latitude) - -37.784788333) < 1e-9)
        #expect(first.sample.altitude == 59.9)
        #expect(first.sample.timestamp == "2014-12-31T03:07:19.000Z")
        #expect(abs(try #require(first.sample.speed) - 0.69 * 1852 / 3600) < 1e-9)
        #expect(result.samples.allSatisfy { $0.sample.mode == 3 && $0.sample.coordinate != nil })
    }

    /// Odd captures: bad checksums skipped and counted, no-fix and 2D-only logs keep their modes.
    @Test(arguments: [
        ("com-1289.log", 1, nil as Int?, 3),
        ("skytraq.log", 0, 1, 1),
        ("eXplorist110.log", 0, 1, 1),
        ("magellan-ec10.log", 0, nil, 2),
        ("triton400.log", 0, nil, 3),
    ])
    func oddCaptures(capture: String, rejected: Int, onlyMode: Int?, highestMode: Int) throws {
        // Captures with odd content: the bad checksum is skipped and counted; no-fix logs give
        // only mode-1 epochs without positions; a 2D-only receiver gives no 3D epoch.
        let result = NMEAReader.read(try String(contentsOfFile: Fixtures.capture(capture), encoding: .utf8))
        #expect(result.rejectedSentences >= rejected)
        #expect(!result.samples.isEmpty)
        let modes = Set(result.samples.map(\.sample.mode))
        if let onlyMode { #expect(modes == [onlyMode]) }
        #expect(modes.max() == highestMode)
        #expect(result.samples.allSatisfy { ($0.sample.mode >= 2) == ($0.sample.coordinate != nil) })
    }

    /// com-1289's bad sentence is reported with its line number.
    @Test func firstProblemNamesTheLine() throws {
        let result = NMEAReader.read(try String(contentsOfFile: Fixtures.capture("com-1289.log"), encoding: .utf8))
        let problem = try #require(result.firstProblem)
        #expect(problem.hasPrefix("line "))
        #expect(problem.contains("checksum"))
    }

    /// GGA-only epochs replay by time of day, or take the last RMC date, rolling over at midnight.
    @Test func timesWithoutDates() {
        // GGA-only epochs without any date replay by time of day; with an earlier RMC they take
        // its date, rolling over at midnight.
        let text = [
            "$GPGGA,235958,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,",
            "$GPGGA,235959,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,",
            "$GPRMC,235959,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W",
            "$GPGGA,000000,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,",
        ].map(\.withChecksum).joined(separator: "\r\n")
        let result = NMEAReader.read(text)
        #expect(result.samples.map(\.time) == [
            .timeOfDay(86_398), .absolute(764_467_199), .absolute(764_467_200),
        ])
        #expect(result.samples.map(\.sample.timestamp) == [nil, "1994-03-23T23:59:59.000Z", "1994-03-24T00:00:00.000Z"])
    }
}

extension String {
    /// The sentence with its `*hh` checksum appended.
    var withChecksum: String {
        let body = dropFirst()
        let checksum = body.utf8.reduce(0 as UInt8) { $0 ^ $1 }
        let hex = String(checksum, radix: 16, uppercase: true)
        return self + "*" + (hex.count == 1 ? "0" + hex : hex)
    }
}
