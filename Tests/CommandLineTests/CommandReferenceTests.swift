import Foundation
import SwitchyardTestSupport
import Testing
@testable import switchyard

struct CommandReferenceTests {
    /// The command reference in the documentation (the README or a page of `docs/`, today
    /// docs/command-line.md) is the one the command definitions generate: between
    /// `<!-- commands:begin -->` and `<!-- commands:end -->`, in a code block, on one page.
    @Test func documentedReferenceMatchesTheCommandDefinitions() throws {
        let pages = try DocumentationPage.all().filter { $0.text.contains("<!-- commands:begin -->") }
        #expect(pages.count == 1, "the command reference is on \(pages.count) pages: \(pages); keep it on one")
        let page = try #require(pages.first, "no page of README.md or docs/ holds the command reference markers")
        let begin = try #require(page.text.range(of: "<!-- commands:begin -->\n"))
        let end = try #require(page.text.range(of: "<!-- commands:end -->"))
        let section = String(page.text[begin.upperBound..<end.lowerBound])
        let expected = "```\n\(CommandReference(root: CommandTable.root).text)\n```\n"
        #expect(section == expected, "paste this between the command markers of \(page.path):\n\(expected)")
    }
}
