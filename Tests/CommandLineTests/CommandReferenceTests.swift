import Foundation
import Testing
@testable import switchyard

struct CommandReferenceTests {
    /// The README's command reference is the one the command definitions generate: between
    /// `<!-- commands:begin -->` and `<!-- commands:end -->`, in a code block.
    @Test func readmeMatchesTheCommandDefinitions() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let begin = try #require(readme.range(of: "<!-- commands:begin -->\n"))
        let end = try #require(readme.range(of: "<!-- commands:end -->"))
        let section = String(readme[begin.upperBound..<end.lowerBound])
        let expected = "```\n\(CommandReference(root: CommandTable.root).text)\n```\n"
        #expect(section == expected, "paste this between the README's commands markers:\n\(expected)")
    }
}
