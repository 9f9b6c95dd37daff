import Foundation

/// The Swift code blocks of a Markdown text and the snippet files they quote.
///
/// A block is checked when the line before its fence (blank lines skipped) is a marker:
/// `<!-- snippet: Examples/Snippets/NAME.swift -->` (the block is that file's shown text) or
/// `<!-- fragment: why -->` (an excerpt that cannot compile alone, such as a manifest line).
enum ReadmeBlocks {
    /// One fenced block of Swift code.
    struct Block: Sendable, CustomStringConvertible {
        /// The page it is on (`README.md`, `docs/library.md`).
        var file: String
        /// The line of its opening fence, from 1.
        var line: Int
        /// The marker before it, without `<!--` and `-->` (`snippet: …`, `fragment: …`), if any.
        var marker: String?
        /// Its lines between the fences, joined with newlines.
        var code: String

        /// The snippet file it quotes, from a `snippet:` marker.
        var snippetPath: String? { value(of: "snippet:") }
        /// Why it is exempt, from a `fragment:` marker.
        var fragmentReason: String? { value(of: "fragment:") }

        var description: String { "\(file):\(line)" }

        private func value(of key: String) -> String? {
            guard let marker, marker.hasPrefix(key) else { return nil }
            let value = marker.dropFirst(key.count).trimmingCharacters(in: .whitespaces)
            return value.isEmpty ? nil : value
        }
    }

    /// Every block fenced with ```` ```swift ```` in `markdown`, the text of `file`, in order.
    static func swiftBlocks(in markdown: String, file: String = "README.md") -> [Block] {
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var blocks: [Block] = []
        var index = 0
        while index < lines.count {
            let fence = lines[index].trimmingCharacters(in: .whitespaces)
            guard fence.hasPrefix("```") else {
                index += 1
                continue
            }
            let end = lines[(index + 1)...].firstIndex { $0.trimmingCharacters(in: .whitespaces) == "```" } ?? lines.count
            if fence == "```swift" {
                let marker = lines[..<index].last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
                    .map { $0.trimmingCharacters(in: .whitespaces) }
                    .flatMap { $0.hasPrefix("<!--") && $0.hasSuffix("-->") ? String($0.dropFirst(4).dropLast(3)).trimmingCharacters(in: .whitespaces) : nil }
                blocks.append(Block(file: file, line: index + 1, marker: marker, code: lines[(index + 1)..<end].joined(separator: "\n")))
            }
            index = end + 1
        }
        return blocks
    }

    /// What a snippet file shows: its lines outside `// snippet.hide` … `// snippet.show`
    /// regions (the markers themselves dropped), each shown region moved left by its smallest
    /// indentation, trailing blank lines dropped.
    static func shownText(ofSnippet source: String) -> String {
        var regions: [[String]] = [[]]
        var hidden = false
        for line in source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            switch line.trimmingCharacters(in: .whitespaces) {
            case "// snippet.hide":
                hidden = true
                regions.append([])
            case "// snippet.show":
                hidden = false
            default:
                if !hidden { regions[regions.count - 1].append(line) }
            }
        }
        let shown = regions.flatMap { region -> [String] in
            let indent = region.filter { !$0.allSatisfy(\.isWhitespace) }.map { $0.prefix(while: { $0 == " " }).count }.min() ?? 0
            return region.map { $0.allSatisfy(\.isWhitespace) ? "" : String($0.dropFirst(indent)) }
        }
        return shown.reversed().drop { $0.isEmpty }.reversed().joined(separator: "\n")
    }
}
