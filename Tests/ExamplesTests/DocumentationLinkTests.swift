import Foundation
import SwitchyardTestSupport
import Testing

/// The README and the pages of `docs/` point at things that exist: every relative link at a
/// file (and heading), every source path the Architecture section names at a file or folder.
struct DocumentationLinkTests {
    private static let root = SwitchyardProcess.packageRoot

    /// Every relative link of every page resolves to a file or folder, and its anchor to a
    /// heading of the page it names.
    @Test func everyRelativeLinkResolves() throws {
        let pages = try DocumentationPage.all(root: Self.root)
        var broken: [String] = []
        for page in pages {
            for link in MarkdownLinks.relativeLinks(in: page.text) {
                let target = link.path.isEmpty ? page.path : Self.resolve(link.path, from: page.path)
                guard FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(target).path) else {
                    broken.append("\(page.path): \(link.path) does not exist")
                    continue
                }
                guard let anchor = link.anchor else { continue }
                let text = try String(contentsOf: Self.root.appendingPathComponent(target), encoding: .utf8)
                if !MarkdownLinks.anchors(in: text).contains(anchor) {
                    broken.append("\(page.path): \(target) has no heading #\(anchor)")
                }
            }
        }
        #expect(broken.isEmpty, "broken links:\n\(broken.joined(separator: "\n"))")
    }

    /// The README links every page of `docs/`, so none is left where no reader finds it.
    @Test func readmeLinksEveryPage() throws {
        let pages = try DocumentationPage.all(root: Self.root)
        let readme = try #require(pages.first { $0.path == "README.md" })
        let linked = Set(MarkdownLinks.relativeLinks(in: readme.text).map(\.path))
        let unlinked = pages.map(\.path).filter { $0 != "README.md" && !linked.contains($0) }
        #expect(unlinked.isEmpty, "README.md links none of: \(unlinked)")
    }

    /// Every `Sources/…`, `Plugins/…`, `Tests/…`, `Scripts/…`, `Config/…` and `Examples/…` path
    /// the README's Architecture section names exists, so the map stays true as files move.
    @Test func architecturePathsExist() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(Self.section("Architecture", of: readme), "README.md has no ## Architecture section")
        let paths = Self.repositoryPaths(in: section)
        #expect(paths.count >= 20, "the Architecture section names only \(paths.count) paths")
        let missing = paths.filter { !Self.exists($0) }
        #expect(missing.isEmpty, "the Architecture section names paths that do not exist:\n\(missing.joined(separator: "\n"))")
    }

    /// Links in code are not followed, schemes are left out, and anchors are GitHub's.
    @Test func linksAndAnchorsAreReadAsGitHubRendersThem() {
        let markdown = """
            # Reload (SIGHUP)
            ## `bus`
            ## Bus
            See [Secrets](guarantees.md#secrets), [here](#bus-1), ![a picture](dashboard.png),
            [the site](https://nats.io) and `[not](a-link.md)`.
            ```
            [not](in-a-block.md)
            # not a heading
            ```
            """
        #expect(MarkdownLinks.relativeLinks(in: markdown) == [
            .init(path: "guarantees.md", anchor: "secrets"), .init(path: "", anchor: "bus-1"), .init(path: "dashboard.png", anchor: nil),
        ])
        #expect(MarkdownLinks.anchors(in: markdown) == ["reload-sighup", "bus", "bus-1"])
        #expect(Self.resolve("../README.md", from: "docs/journal.md") == "README.md")
        #expect(Self.resolve("docs/journal.md", from: "README.md") == "docs/journal.md")
    }

    /// `path`, written on the page at `pagePath`, relative to the package root.
    static func resolve(_ path: String, from pagePath: String) -> String {
        var parts = pagePath.split(separator: "/").dropLast().map(String.init)
        for part in path.split(separator: "/").map(String.init) where part != "." {
            if part == ".." {
                _ = parts.popLast()
            } else {
                parts.append(part)
            }
        }
        return parts.joined(separator: "/")
    }

    /// The part of `markdown` under the level-2 heading `title`, up to the next one.
    static func section(_ title: String, of markdown: String) -> String? {
        guard let start = markdown.range(of: "\n## \(title)\n") else { return nil }
        let rest = markdown[start.upperBound...]
        return String(rest[..<(rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex)])
    }

    /// The repository paths written in `text`, without a trailing `*` or sentence punctuation.
    static func repositoryPaths(in text: String) -> [String] {
        let pattern = /(?:Sources|Plugins|Tests|Scripts|Config|Examples)\/[A-Za-z0-9_.+\/-]*/
        let paths = text.matches(of: pattern).map { String($0.output).trimmingCharacters(in: CharacterSet(charactersIn: ".")) }
        return Array(Set(paths)).sorted()
    }

    /// Whether `path` exists under the package root.
    static func exists(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path)
    }
}
