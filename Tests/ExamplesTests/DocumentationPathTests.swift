import Foundation
import SwitchyardTestSupport
import Testing

/// Paths and options the documentation shows are the ones a reader's bus has.
struct DocumentationPathTests {
    static let pages = (try? DocumentationPage.all()) ?? []

    /// A bus keeps its files in its own data directory, `.switchyard/NAME/` (the demo's is
    /// `.switchyard/demo/`): a page that shows `.switchyard/control.sock` or
    /// `.switchyard/journal` shows a path no default bus has.
    @Test(arguments: pages)
    func busFilesAreInABusDirectory(page: DocumentationPage) {
        let wrong = #/\.switchyard/(control\.sock|journal|bus\.lock|slices\.json)/#
        for (number, line) in page.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
        where line.contains(wrong) {
            Issue.record("\(page.path):\(number + 1): a bus's files are in .switchyard/NAME/: \(line)")
        }
    }

    /// The documentation spells the data directory option as the help does, `--data-dir`
    /// (`--data-directory` is accepted, not shown).
    @Test(arguments: pages)
    func dataDirectoryOptionIsSpelledOnce(page: DocumentationPage) {
        #expect(!page.text.contains("--data-directory"), "\(page.path) shows --data-directory; the help says --data-dir")
    }

    @Test func pagesWereRead() {
        #expect(Self.pages.count > 5)
    }
}
