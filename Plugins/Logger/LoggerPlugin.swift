import FoundationEssentials
import SwitchyardBus

/// Writes matching actions as text or JSON lines to stdout, stderr or a file.
///
/// It never blocks the bus: its subscription drops the oldest actions when it falls behind,
/// and its writer drops lines when the output stalls; both are counted and reported on the
/// bus log. On stop it writes what it has buffered before returning.
public struct LoggerPlugin: Plugin {
    public static let kind = "logger"
    public static let summary = "Writes actions as text or JSON lines to stdout, stderr or a file."
    public static let settingDescriptions: [SettingDescription] = [
        SettingDescription("format", "\"text\" | \"json\"", default: "\"text\"",
                           "text: time, id, type, source, cause, payload; json: the whole action as one object."),
        SettingDescription("to", "\"stdout\" | \"stderr\" | file path", default: "\"stdout\"",
                           "Where lines go; a file is created if missing and appended to."),
        SettingDescription("actions", "type pattern", default: "\"*\"", "Which actions to write: exact, \"domain/*\" or \"*\"."),
        SettingDescription("bufferSize", "integer 1-1000000", default: "4096",
                           "Actions (and lines) held while the output is slow; beyond it the oldest are dropped and counted."),
    ]

    /// How each action is written.
    public let format: LogFormat
    /// Which actions are written.
    public let pattern: TypePattern
    /// Actions held while the output is slow.
    public let bufferSize: Int
    let destination: LineWriter.Destination

    public init(name: String, settings: PluginSettings) throws {
        format = LogFormat(rawValue: settings.oneOf("format", LogFormat.allCases.map(\.rawValue), default: "text")) ?? .text
        pattern = settings.typePattern("actions", default: .all)
        bufferSize = settings.int("bufferSize", default: 4096, range: 1...1_000_000)
        switch settings.string("to", default: "stdout") {
        case "stdout":
            destination = .standardOutput
        case "stderr":
            destination = .standardError
        case let path:
            destination = .file(path)
            let directory = path.parentDirectory
            var isDirectory = false
            if !(FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) && isDirectory) {
                settings.problem("to", "the directory of \(JSON.string(path)) does not exist")
            }
        }
        try settings.finish()
    }

    public var subscription: ActionSubscription? {
        ActionSubscription(pattern, bufferSize: bufferSize, overflow: .dropOldest)
    }

    /// The most actions formatted under one lock of the writer, so its thread never waits
    /// long for the lines before them.
    static let batchLines = 256

    public func run(context: PluginContext) async throws {
        let writer = try LineWriter(destination: destination, maxPendingLines: bufferSize)
        if let notice = writer.pollingNotice { context.log.warning(notice) }
        var reportedDrops = 0
        var iterator = context.actions.makeAsyncIterator()
        var actions: [BusAction] = []
        var times = TimestampText()
        while let first = await iterator.next() {
            // Every action the subscription already handed over goes to the writer at once:
            // one lock and at most one wake-up of its thread for the lot.
            actions.append(first)
            while iterator.takenCount > 0, actions.count < Self.batchLines, let next = await iterator.next() { actions.append(next) }
            writer.write(count: actions.count) { index, bytes in format.append(actions[index], times: &times, to: &bytes) }
            actions.removeAll(keepingCapacity: true)
            let drops = context.actions.droppedCount + writer.droppedCount
            if drops > reportedDrops {
                context.log.warning("dropped \(drops - reportedDrops) action(s): the output is too slow")
                reportedDrops = drops
            }
        }
        await writer.finish()
    }
}
