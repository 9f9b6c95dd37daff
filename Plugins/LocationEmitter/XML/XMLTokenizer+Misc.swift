/// What a document may hold besides elements and text: comments and processing instructions
/// (skipped), CDATA sections (read as text), and the XML declaration (checked).
extension XMLTokenizer {
    /// Skips the comment at `index` (its `<!--`); `--` may not appear inside one.
    mutating func skipComment() throws(XMLError) {
        let start = index
        guard let dashes = find("--", from: index + 4) else { throw error("a comment is not closed", at: start) }
        guard byte(at: dashes + 2) == UInt8(ascii: ">") else { throw error("'--' is not allowed inside a comment", at: dashes) }
        index = dashes + 3
    }

    /// The text of the CDATA section at `index` (its `<![CDATA[`), line ends made LF.
    mutating func readCDATA() throws(XMLError) -> String {
        let start = index
        let body = index + 9
        guard let end = find("]]>", from: body) else { throw error("a CDATA section is not closed", at: start) }
        guard end - body <= Self.maxTokenBytes else { throw error("a CDATA section longer than 1 MiB", at: start) }
        index = end + 3
        var text: [UInt8] = []
        text.reserveCapacity(end - body)
        var cursor = body
        while cursor < end {
            if bytes[cursor] == 0x0D {
                text.append(0x0A)
                cursor += cursor + 1 < end && bytes[cursor + 1] == 0x0A ? 2 : 1
            } else {
                text.append(bytes[cursor])
                cursor += 1
            }
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Skips the processing instruction at `index` (its `<?`), or checks the XML declaration
    /// when it is one: only at the very start, with a version 1.x, and an encoding this
    /// tokenizer reads.
    mutating func skipProcessingInstruction() throws(XMLError) {
        let start = index
        index += 2
        let target = try readName(expected: "a target name expected after '<?'")
        if target.lowercased() == "xml" {
            guard start == documentStart, target == "xml" else {
                throw error("the XML declaration is allowed only at the very start of the document", at: start)
            }
            return try checkDeclaration(at: start)
        }
        if matches("?>", at: index) {
            index += 2
            return
        }
        guard let next = byte(at: index), XMLCharacters.isSpace(next) else {
            throw error(index < bytes.count ? "white space expected after <?\(target)" : "a processing instruction is not closed", at: index)
        }
        guard let end = find("?>", from: index) else { throw error("a processing instruction is not closed", at: start) }
        index = end + 2
    }

    private mutating func checkDeclaration(at start: Int) throws(XMLError) {
        let (pseudoAttributes, _) = try readAttributes(of: "xml", declaration: true)
        let value = { (name: String) in pseudoAttributes.first { $0.name == name }?.value }
        guard let version = value("version") else { throw error("the XML declaration has no version", at: start) }
        guard version.hasPrefix("1.") else { throw error("XML version \(version) is not read (only 1.x)", at: start) }
        if let encoding = value("encoding"), !["utf-8", "utf8", "us-ascii", "ascii"].contains(encoding.lowercased()),
           bytes.contains(where: { $0 >= 0x80 }) {
            throw error("the document declares encoding \(encoding) and holds non-ASCII characters; only UTF-8 is read", at: start)
        }
    }
}
