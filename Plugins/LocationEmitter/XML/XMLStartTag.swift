/// A start tag as ``XMLTokenizer`` reads it.
struct XMLStartTag: Sendable, Hashable {
    /// An attribute with its value, references resolved and white space made spaces.
    struct Attribute: Sendable, Hashable {
        /// The name, with any namespace prefix (`xmlns:gpx`).
        var name: String
        /// The value.
        var value: String
    }

    /// The element's name, with any namespace prefix (`gpx:trkpt`).
    var name: String
    /// The attributes in document order; no name appears twice.
    var attributes: [Attribute]
    /// The byte offset of the tag's `<`.
    var offset: Int

    /// The name without its namespace prefix (`gpx:trkpt` → `trkpt`).
    var localName: Substring { XMLStartTag.localName(name) }

    /// The value of the attribute `name` (matched with its prefix, as written), if present.
    func value(of name: String) -> String? {
        attributes.first { $0.name == name }?.value
    }

    /// `name` without its namespace prefix.
    static func localName(_ name: String) -> Substring {
        guard let colon = name.lastIndex(of: ":") else { return name[...] }
        return name[name.index(after: colon)...]
    }
}
