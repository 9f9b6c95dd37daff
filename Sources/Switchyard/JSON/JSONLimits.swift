/// The one nesting and size limit for JSON that comes into the bus from outside.
///
/// Every door applies it — control requests, network-fetch responses, NATS messages, exec
/// children's lines, gpsd lines and the configuration file — and rejects a document beyond it
/// right there, with that door's failure (an error reply, a `failed` or `status` action, a
/// counted protocol violation, a configuration error). So whatever the bus accepts stays well
/// inside what its own readers take back: the journal and snapshot readers accept
/// ``readerDepth`` levels, which leaves room for the envelopes (a journal line, a watcher
/// line, a snapshot of the state with its slices) wrapped around an accepted value.
public enum JSONLimits {
    /// The deepest nesting of arrays and objects a door accepts: 128.
    public static let maximumDepth = 128
    /// The largest document a door accepts, in bytes: 16 MiB.
    public static let maximumDocumentBytes = 16 << 20
    /// The deepest nesting the bus's own readers (journal, snapshots, clients) accept: 512.
    public static let readerDepth = JSONParser.maximumDepth
}

extension JSON {
    /// Parses JSON that came from outside the bus, within ``JSONLimits``: as
    /// ``init(parsing:)-(some Collection<UInt8>)`` does, but a document longer than
    /// ``JSONLimits/maximumDocumentBytes`` or nested deeper than ``JSONLimits/maximumDepth``
    /// is rejected.
    ///
    /// - Throws: ``JSONParseError``; a document that is too long is reported at its start.
    public init(parsingInput bytes: some Collection<UInt8>) throws(JSONParseError) {
        let limited = { (buffer: UnsafeBufferPointer<UInt8>) -> Result<JSON, JSONParseError> in
            guard buffer.count <= JSONLimits.maximumDocumentBytes else {
                return .failure(JSONParseError(
                    line: 1, column: 1, offset: 0,
                    reason: "the document is \(buffer.count) bytes long, more than the \(JSONLimits.maximumDocumentBytes) allowed"))
            }
            return JSONParser.result(buffer, maximumDepth: JSONLimits.maximumDepth)
        }
        if let result = bytes.withContiguousStorageIfAvailable(limited) {
            self = try result.get()
        } else {
            self = try Array(bytes).withUnsafeBufferPointer(limited).get()
        }
    }

    /// Parses JSON text that came from outside the bus, within ``JSONLimits``, as
    /// ``init(parsingInput:)-(some Collection<UInt8>)`` does.
    ///
    /// - Throws: ``JSONParseError`` with the line, column and reason of the first problem.
    public init(parsingInput text: String) throws(JSONParseError) {
        self = try JSON(parsingInput: Array(text.utf8))
    }
}
