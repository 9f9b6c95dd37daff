import FoundationEssentials
import SwitchyardBus

/// Reads an NMEA 0183 log into one sample per epoch.
///
/// An epoch is the RMC and GGA sentences of one time of day, with the GSA that comes with them
/// (its fix type decides 2D or 3D). RMC gives the date, speed and course, GGA the altitude and
/// fix quality. Sentences with a bad or missing checksum are skipped and counted; other
/// sentence types (GSV, VTG, proprietary) and lines that are not sentences are ignored.
struct NMEAReader {
    /// What a log contained.
    struct Result: Sendable, Hashable {
        /// One sample per epoch, in file order.
        var samples: [RecordedSample] = []
        /// Sentences skipped for a bad or missing checksum or unreadable fields.
        var rejectedSentences = 0
        /// The first skipped sentence's line number and reason, for the log.
        var firstProblem: String?
    }

    private struct Epoch {
        var timeField: Substring
        var timeOfDay: Double
        var fixFromRMC: Bool?
        var rmcCoordinate: Coordinate?
        var speed: Double?
        var course: Double?
        var date: Int?
        var ggaQuality: Int?
        var ggaCoordinate: Coordinate?
        var altitude: Double?
        var fixType: Int?
    }

    private static let metresPerSecondPerKnot = 1852.0 / 3600.0

    private var result = Result()
    private var epoch: Epoch?
    private var lastDate: (days: Int, timeOfDay: Double)?

    /// Reads every line of `text`.
    static func read(_ text: String) -> Result {
        var reader = NMEAReader()
        for (offset, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            reader.consume(line, lineNumber: offset + 1)
        }
        reader.flush()
        return reader.result
    }

    private mutating func consume(_ line: Substring, lineNumber: Int) {
        let sentence: NMEASentence
        do {
            guard let parsed = try NMEASentence(line) else { return }
            sentence = parsed
        } catch {
            reject("line \(lineNumber): \(error)")
            return
        }
        switch sentence.type {
        case "RMC", "GGA":
            guard let timeField = sentence[0], let timeOfDay = sentence.timeOfDay(at: 0) else {
                reject("line \(lineNumber): \(sentence.type) without a valid time")
                return
            }
            if epoch?.timeField != timeField {
                flush()
                epoch = Epoch(timeField: timeField, timeOfDay: timeOfDay)
            }
            if sentence.type == "RMC" { readRMC(sentence) } else { readGGA(sentence) }
        case "GSA":
            if let type = sentence[1].flatMap({ Int($0) }), (1...3).contains(type) { epoch?.fixType = type }
        default:
            break
        }
    }

    private mutating func readRMC(_ sentence: NMEASentence) {
        epoch?.fixFromRMC = sentence[1] == "A"
        if let latitude = sentence.coordinateValue(at: 2, degreeDigits: 2),
            let longitude = sentence.coordinateValue(at: 4, degreeDigits: 3),
            abs(latitude) <= 90, abs(longitude) <= 180
        {
            epoch?.rmcCoordinate = Coordinate(latitude: latitude, longitude: longitude)
        }
        epoch?.speed = sentence[6].flatMap { Double($0) }.map { $0 * Self.metresPerSecondPerKnot }
        epoch?.course = sentence[7].flatMap { Double($0) }
        if let date = sentence[8], date.count == 6, let day = Int(date.prefix(2)),
            let month = Int(date.dropFirst(2).prefix(2)), let year = Int(date.suffix(2)),
            (1...31).contains(day), (1...12).contains(month)
        {
            epoch?.date = CivilDate.days(year: year < 80 ? 2000 + year : 1900 + year, month: month, day: day)
        }
    }

    private mutating func readGGA(_ sentence: NMEASentence) {
        epoch?.ggaQuality = sentence[5].flatMap { Int($0) } ?? 0
        if let latitude = sentence.coordinateValue(at: 1, degreeDigits: 2),
            let longitude = sentence.coordinateValue(at: 3, degreeDigits: 3),
            abs(latitude) <= 90, abs(longitude) <= 180
        {
            epoch?.ggaCoordinate = Coordinate(latitude: latitude, longitude: longitude)
        }
        epoch?.altitude = sentence[8].flatMap { Double($0) }
    }

    private mutating func flush() {
        guard let epoch else { return }
        self.epoch = nil
        let rmcFix = epoch.fixFromRMC == true ? epoch.rmcCoordinate : nil
        let ggaFix = (epoch.ggaQuality ?? 0) > 0 ? epoch.ggaCoordinate : nil
        let coordinate = rmcFix ?? ggaFix
        var mode = 1
        if coordinate != nil, epoch.fixType != 1 {
            mode = epoch.fixType ?? (epoch.altitude != nil && ggaFix != nil ? 3 : 2)
        }
        var time = RecordedSample.Time.timeOfDay(epoch.timeOfDay)
        var days = epoch.date
        if days == nil, let lastDate {
            // A GGA-only epoch takes the last RMC date, rolled over at midnight.
            days = lastDate.days + (epoch.timeOfDay + 43_200 < lastDate.timeOfDay ? 1 : 0)
        }
        if let days {
            lastDate = (days, epoch.timeOfDay)
            time = .absolute(CivilDate.seconds(days: days, secondsOfDay: epoch.timeOfDay))
        }
        var timestamp: String?
        if case .absolute(let seconds) = time { timestamp = Timestamp.iso8601(Date(timeIntervalSince1970: seconds)) }
        let sample = PositionSample(
            mode: mode, coordinate: coordinate, altitude: mode == 3 ? epoch.altitude : nil,
            speed: coordinate == nil ? nil : epoch.speed, course: coordinate == nil ? nil : epoch.course,
            timestamp: timestamp)
        result.samples.append(RecordedSample(sample: sample, time: time))
    }

    private mutating func reject(_ problem: String) {
        result.rejectedSentences += 1
        if result.firstProblem == nil { result.firstProblem = problem }
    }
}
