import FoundationEssentials
import Glibc

/// A recording ready to replay: samples with the recorded delay before each.
///
/// Delays come from the recorded times: a time going backwards (receivers do that) gives no
/// delay, a time of day that wraps past midnight gives the delay across it, and a sample
/// without a time is taken to follow the previous one after one second, the usual receiver
/// rate.
struct ReplayTrack: Sendable, Hashable {
    /// One replayed sample.
    struct Point: Sendable, Hashable {
        /// The position.
        var sample: PositionSample
        /// The recorded time between the previous point and this one (zero for the first).
        var delay: Duration
    }

    /// Why a recording cannot be replayed.
    struct LoadError: Error, Sendable, Hashable, CustomStringConvertible {
        /// A sentence naming the file and the problem.
        let description: String
    }

    /// The points, in order; never empty.
    let points: [Point]
    /// Lines or points the reader skipped, with the first reason, for a warning; `nil` if none.
    let skipped: String?

    /// Builds a track from samples; `nil` when there are none.
    init?(_ samples: [RecordedSample], skipped: String? = nil) {
        guard !samples.isEmpty else { return nil }
        var points: [Point] = []
        var previous: RecordedSample.Time?
        for recorded in samples {
            points.append(Point(sample: recorded.sample, delay: points.isEmpty ? .zero : Self.delay(from: previous, to: recorded.time)))
            previous = recorded.time
        }
        self.points = points
        self.skipped = skipped
    }

    /// Reads the NMEA or GPX file at `path` (GPX when its first non-blank character, after any
    /// byte-order mark, is `<`).
    ///
    /// - Throws: ``LoadError`` when the file cannot be read, is malformed GPX, or holds no
    ///   position at all.
    static func load(path: String) throws(LoadError) -> ReplayTrack {
        var isDirectory = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory {
            throw LoadError(description: "cannot read \(path): it is a directory")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            // Foundation's reasons differ between platforms; the system's are short and stable.
            let reason = access(path, R_OK) == 0 ? "unreadable" : String(cString: strerror(errno))
            throw LoadError(description: "cannot read \(path): \(reason)")
        }
        let samples: [RecordedSample]
        var skipped: String?
        // A UTF-8 byte-order mark may precede a GPX file's first `<`.
        let text = data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data[...]
        if text.first(where: { !" \t\r\n".utf8.contains($0) }) == UInt8(ascii: "<") {
            let result: GPXReader.Result
            do {
                result = try GPXReader.read(data)
            } catch {
                throw LoadError(description: "\(path) is not valid GPX: \(error)")
            }
            samples = result.samples
            if let problem = result.firstProblem { skipped = "\(result.skippedPoints) track point(s) skipped, first at \(problem)" }
        } else {
            let result = NMEAReader.read(String(decoding: data, as: UTF8.self))
            samples = result.samples
            if let problem = result.firstProblem { skipped = "\(result.rejectedSentences) sentence(s) skipped, first at \(problem)" }
        }
        guard let track = ReplayTrack(samples, skipped: skipped) else {
            throw LoadError(description: "\(path) holds no GPX track point with a time and no NMEA RMC or GGA sentence")
        }
        return track
    }

    private static func delay(from previous: RecordedSample.Time?, to current: RecordedSample.Time?) -> Duration {
        switch (previous, current) {
        case (.absolute(let before), .absolute(let after)):
            return .seconds(max(0, after - before))
        case (.timeOfDay(let before), .timeOfDay(let after)), (.absolute(let before), .timeOfDay(let after)),
            (.timeOfDay(let before), .absolute(let after)):
            var difference = (after.truncatingRemainder(dividingBy: 86_400)) - (before.truncatingRemainder(dividingBy: 86_400))
            if difference < -43_200 { difference += 86_400 }
            return .seconds(max(0, difference))
        default:
            return .seconds(1)
        }
    }
}
