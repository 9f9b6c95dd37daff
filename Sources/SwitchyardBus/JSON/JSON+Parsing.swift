extension JSON {
    /// Parses UTF-8 JSON text: exactly one value, optionally surrounded by whitespace.
    ///
    /// Strict RFC 8259: no comments, trailing commas, `NaN` or single quotes; strings must be
    /// valid UTF-8 and escapes well-formed (surrogates paired). A number without a fraction or
    /// exponent that fits `Int64` becomes ``integer(_:)``; every other number becomes
    /// ``number(_:)``, and one too large for a `Double` is rejected. Duplicate keys in an object
    /// and nesting deeper than `maximumDepth` arrays and objects are rejected.
    ///
    /// - Parameter maximumDepth: The deepest nesting accepted. Default:
    ///   ``JSONLimits/maximumDepth``, the limit for input from outside the bus.
    /// - Throws: ``JSONParseError`` with the line, column and reason of the first problem.
    public init(parsing text: String, maximumDepth: Int = JSONLimits.maximumDepth) throws(JSONParseError) {
        var text = text
        self = try text.withUTF8 { JSONParser.result($0, maximumDepth: maximumDepth) }.get()
    }

    /// Parses JSON from UTF-8 bytes (a `[UInt8]`, `Data`, a buffer slice …), as
    /// ``init(parsing:maximumDepth:)-(String,_)`` does; contiguous collections are read in place.
    ///
    /// - Parameter maximumDepth: The deepest nesting accepted. Default:
    ///   ``JSONLimits/maximumDepth``; the journal's readers pass ``JSONLimits/journalDepth``.
    /// - Throws: ``JSONParseError`` with the line, column and reason of the first problem.
    public init(parsing bytes: some Collection<UInt8>, maximumDepth: Int = JSONLimits.maximumDepth) throws(JSONParseError) {
        if let result = bytes.withContiguousStorageIfAvailable({ JSONParser.result($0, maximumDepth: maximumDepth) }) {
            self = try result.get()
        } else {
            self = try Array(bytes).withUnsafeBufferPointer { JSONParser.result($0, maximumDepth: maximumDepth) }.get()
        }
    }
}
