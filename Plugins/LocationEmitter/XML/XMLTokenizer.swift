/// A small XML 1.0 reader for documents such as GPX: it hands out start tags, end tags and
/// text in document order and refuses, with the line and column, anything not well formed.
///
/// It reads UTF-8 (a byte-order mark is skipped; a declared encoding other than UTF-8 or ASCII
/// is refused unless the document is all ASCII), elements with attributes in either quote,
/// self-closing tags, text, the five predefined entities and character references, comments,
/// CDATA sections, processing instructions and the XML declaration. A DOCTYPE is refused: GPX
/// needs none, and refusing it leaves no entity to expand. Namespace prefixes are kept in the
/// names (`gpx:trkpt`); their declarations are ordinary attributes. End tags must match their
/// start tags, one root element holds everything, and no name, attribute value or text run
/// may exceed ``maxTokenBytes`` nor elements nest deeper than ``maxDepth``, so a hostile file
/// costs no more than its own size.
struct XMLTokenizer {
    /// What the document holds next.
    enum Event: Equatable {
        /// A start tag (a self-closing one is followed by its ``end(name:offset:)``).
        case start(XMLStartTag)
        /// An end tag; `offset` is that of its `<` (of the start tag, for a self-closing one).
        case end(name: String, offset: Int)
        /// Character data: text with its references resolved and line ends made LF, or a CDATA
        /// section. Only inside the root element; white space outside it is skipped.
        case text(String)
    }

    /// The longest name, attribute value or text run read: 1 MiB.
    static let maxTokenBytes = 1 << 20
    /// The deepest nesting of elements read.
    static let maxDepth = 256

    private enum Place { case prolog, root, epilog }

    let bytes: [UInt8]
    /// Where the document begins: after a byte-order mark, if any.
    let documentStart: Int
    var index: Int
    private var lines: XMLLineCounter
    private var open: [(name: String, offset: Int)] = []
    private var place = Place.prolog
    private var pendingEnd: (name: String, offset: Int)?

    /// A tokenizer of `bytes`.
    /// - Throws: ``XMLError`` when the bytes are not UTF-8 or hold a character XML forbids.
    init(_ bytes: [UInt8]) throws(XMLError) {
        self.bytes = bytes
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        index = start
        documentStart = start
        lines = XMLLineCounter(bytes, start: start)
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) {
            throw XMLError(line: 1, column: 1, reason: "the document is UTF-16; only UTF-8 is read")
        }
        if let (offset, reason) = XMLCharacters.firstInvalid(in: bytes, from: start) {
            throw error(reason, at: offset)
        }
    }

    /// The line and column of the byte at `offset`, as errors give them.
    mutating func position(of offset: Int) -> (line: Int, column: Int) {
        lines.position(of: offset)
    }

    /// An error at the byte at `offset`.
    mutating func error(_ reason: String, at offset: Int) -> XMLError {
        let (line, column) = lines.position(of: offset)
        return XMLError(line: line, column: column, reason: reason)
    }

    /// The next event, or `nil` at the end of a complete document.
    /// - Throws: ``XMLError`` at the first thing not well formed.
    mutating func next() throws(XMLError) -> Event? {
        if let end = pendingEnd {
            pendingEnd = nil
            if open.isEmpty { place = .epilog }
            return .end(name: end.name, offset: end.offset)
        }
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "<") else {
                if place == .root { return .text(try readText()) }
                skipSpace()
                if index < bytes.count, bytes[index] != UInt8(ascii: "<") {
                    throw error(place == .prolog ? "text before the root element" : "extra content after the root element", at: index)
                }
                continue
            }
            let start = index
            switch byte(at: index + 1) {
            case UInt8(ascii: "/"):
                return try readEndTag()
            case UInt8(ascii: "?"):
                try skipProcessingInstruction()
            case UInt8(ascii: "!"):
                if matches("<!--", at: start) {
                    try skipComment()
                } else if matches("<![CDATA[", at: start) {
                    guard place == .root else { throw error("a CDATA section outside the root element", at: start) }
                    return .text(try readCDATA())
                } else if matches("<!DOCTYPE", at: start) {
                    throw error("a DOCTYPE is not accepted (GPX needs none, and its entities are not expanded)", at: start)
                } else {
                    throw error("'<!' begins neither a comment nor a CDATA section", at: start)
                }
            default:
                return .start(try readStartTag())
            }
        }
        if let unclosed = open.last {
            let (line, column) = position(of: unclosed.offset)
            throw error("an element is not closed: <\(unclosed.name)> of line \(line), column \(column) is open at the end of the file", at: index)
        }
        if place == .prolog { throw error("the document is empty: it has no root element", at: index) }
        return nil
    }

    private mutating func readStartTag() throws(XMLError) -> XMLStartTag {
        let start = index
        if place == .epilog { throw error("extra content after the root element", at: start) }
        index += 1
        let name = try readName(expected: "an element name expected after '<'")
        let (attributes, selfClosing) = try readAttributes(of: name, declaration: false)
        if selfClosing {
            pendingEnd = (name, start)
        } else {
            guard open.count < Self.maxDepth else { throw error("elements nest deeper than \(Self.maxDepth)", at: start) }
            open.append((name, start))
        }
        place = .root
        return XMLStartTag(name: name, attributes: attributes, offset: start)
    }

    private mutating func readEndTag() throws(XMLError) -> Event {
        let start = index
        index += 2
        let name = try readName(expected: "an element name expected after '</'")
        skipSpace()
        guard byte(at: index) == UInt8(ascii: ">") else { throw error("'>' expected at the end of </\(name)>", at: index) }
        index += 1
        guard let innermost = open.last else {
            throw error(place == .epilog ? "extra content after the root element" : "an end tag before the root element", at: start)
        }
        guard innermost.name == name else {
            let (line, column) = position(of: innermost.offset)
            throw error("an end tag does not match its start tag: </\(name)> closes <\(innermost.name)> of line \(line), column \(column)", at: start)
        }
        open.removeLast()
        if open.isEmpty { place = .epilog }
        return .end(name: name, offset: start)
    }
}
