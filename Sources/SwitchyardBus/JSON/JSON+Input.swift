extension JSON {
    /// Parses JSON that came from outside the bus, within both of ``JSONLimits``: as
    /// ``init(parsing:maximumDepth:)-(some Collection<UInt8>,_)`` does with the door depth, and a
    /// document longer than ``JSONLimits/maximumBytes`` is refused before it is parsed. Every door
    /// (control requests, network-fetch responses, NATS messages, exec lines, gpsd lines, the
    /// configuration) parses with it, so what the bus accepts always reads back from its journal.
    ///
    /// - Parameter repeatedNames: What a repeated object member name does; default
    ///   ``RepeatedMemberNames/refuse``. Readers of other programs' JSON pass `.lastWins`.
    /// - Throws: ``JSONParseError``; a document that is too long is reported at its start.
    public init(parsingInput bytes: some Collection<UInt8>, repeatedNames: RepeatedMemberNames = .refuse) throws(JSONParseError) {
        let limited = { (buffer: UnsafeBufferPointer<UInt8>) -> Result<JSON, JSONParseError> in
            guard buffer.count <= JSONLimits.maximumBytes else {
                return .failure(JSONParseError(
                    line: 1, column: 1, offset: 0,
                    reason: "the document is \(buffer.count) bytes long, more than the \(JSONLimits.maximumBytes) allowed"))
            }
            return JSONParser.result(buffer, maximumDepth: JSONLimits.maximumDepth, repeatedNames: repeatedNames)
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
