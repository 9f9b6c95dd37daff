/// The journal's portable form: one action a line, the JSON object `journal show` prints
/// (``BusAction/json``), without the checksums of the on-disk segments. `journal export` writes
/// it, `journal import` and `replay` read it.
public enum ActionLines {
    /// Appends `action` as one line.
    public static func append(_ action: BusAction, to output: inout [UInt8]) {
        JournalLine.append(action, to: &output)
    }

    /// Reads every line of `bytes` back into actions, checking all of them before returning
    /// any, so a caller never acts on half a file.
    ///
    /// Every line must be a whole action (`type`, `id`, `time`, `source`; `payload` and `cause`
    /// may be left out), ids must be positive and strictly increasing, a `cause` must name an
    /// earlier id, and payloads must nest no deeper than the journal reads back. Empty lines
    /// and a missing final newline are accepted.
    /// - Parameters:
    ///   - file: The name used in errors.
    ///   - progress: Hears the bytes read, as phase `reading`.
    /// - Throws: ``JournalError`` naming the file, the line and the byte where the first bad
    ///   line starts, and why it is bad.
    public static func parse(_ bytes: [UInt8], file: String, progress: JournalProgress? = nil) throws(JournalError) -> [BusAction] {
        var actions: [BusAction] = []
        var lineNumber = 0
        var start = 0
        var failure: JournalError?
        bytes.withUnsafeBufferPointer { buffer in
            while start < buffer.count, failure == nil {
                lineNumber += 1
                var end = start
                while end < buffer.count, buffer[end] != UInt8(ascii: "\n") { end += 1 }
                defer { start = end + 1 }
                var last = end
                if last > start, buffer[last - 1] == UInt8(ascii: "\r") { last -= 1 }
                let line = UnsafeBufferPointer(rebasing: buffer[start..<last])
                if line.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) { continue }
                switch read(line, after: actions.last) {
                case .success(let action):
                    actions.append(action)
                    if let progress, actions.count % SegmentScanner.progressLines == 0 {
                        progress.report("reading", done: end, total: buffer.count, bytes: true)
                    }
                case .failure(let error): failure = .corrupt(file: file, line: lineNumber, offset: start, reason: error.description)
                }
            }
        }
        if let failure { throw failure }
        return actions
    }

    /// The action on `line`, or why it is not one that may follow `previous`.
    private static func read(_ line: UnsafeBufferPointer<UInt8>, after previous: BusAction?) -> Result<BusAction, JournalLine.DecodeError> {
        let action: BusAction
        switch JournalLine.decode(line) {
        case .failure(let error): return .failure(error)
        case .success(let decoded): action = decoded
        }
        func problem(_ text: String) -> Result<BusAction, JournalLine.DecodeError> { .failure(.init(description: text)) }
        if JournalLine.isTooDeep(action) {
            return problem("the payload nests deeper than the \(JSONLimits.journalDepth - 1) levels the journal reads back")
        }
        if let previous, action.id <= previous.id {
            return problem("ids must increase: action \(action.id) follows action \(previous.id)")
        }
        if let cause = action.cause, cause >= action.id {
            return problem("the cause \(cause) of action \(action.id) is not an earlier action")
        }
        return .success(action)
    }
}
