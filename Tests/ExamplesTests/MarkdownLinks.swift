import Foundation

/// What the link checks read in a Markdown page: its relative links and the anchors its
/// headings get, the way GitHub renders them.
enum MarkdownLinks {
    /// A link's target as written: `docs/journal.md`, `guarantees.md#secrets`, `#modules`.
    struct Link: Sendable, Equatable {
        /// The file part, relative to the page's folder; empty for the page itself.
        var path: String
        /// The part after `#`, if any.
        var anchor: String?
    }

    /// Every relative link and image of `markdown` outside code blocks and code spans, in order;
    /// links with a scheme (`https:`, `mailto:`) are left out.
    static func relativeLinks(in markdown: String) -> [Link] {
        let pattern = /!?\[[^\]]*\]\(([^)\s]+)\)/
        return proseLines(of: markdown).flatMap { line in
            withoutCodeSpans(line).matches(of: pattern).compactMap { match -> Link? in
                let target = String(match.output.1)
                guard target.firstMatch(of: /^[a-zA-Z][a-zA-Z0-9+.-]*:/) == nil else { return nil }
                let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                return Link(path: String(parts[0]), anchor: parts.count > 1 ? String(parts[1]) : nil)
            }
        }
    }

    /// The anchors of the page's headings: lower-cased, spaces to `-`, punctuation and
    /// formatting dropped, a repeated one suffixed `-1`, `-2`, … (GitHub's rule).
    static func anchors(in markdown: String) -> Set<String> {
        var seen: [String: Int] = [:]
        var anchors = Set<String>()
        for line in proseLines(of: markdown) {
            guard let heading = line.firstMatch(of: /^#{1,6} +(.*)$/) else { continue }
            let slug = String(heading.output.1.lowercased().compactMap { character -> Character? in
                if character == " " { return "-" }
                return character.isLetter || character.isNumber || character == "-" || character == "_" ? character : nil
            })
            let count = seen[slug, default: 0]
            seen[slug] = count + 1
            anchors.insert(count == 0 ? slug : "\(slug)-\(count)")
        }
        return anchors
    }

    /// The lines outside fenced code blocks.
    static func proseLines(of markdown: String) -> [Substring] {
        var inFence = false
        return markdown.split(separator: "\n", omittingEmptySubsequences: false).filter { line in
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                inFence.toggle()
                return false
            }
            return !inFence
        }
    }

    /// `line` with its code spans (`` `…` ``) removed, so a link written as code is not followed.
    private static func withoutCodeSpans(_ line: Substring) -> String {
        String(line).replacing(/`[^`]*`/, with: "")
    }
}
