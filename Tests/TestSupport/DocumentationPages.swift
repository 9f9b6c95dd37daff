import Foundation

/// The package's user documentation, as the tests that keep it true read it: `README.md` and
/// every Markdown page in `docs/`, so a block or example moved from the README to a page of the
/// reference stays checked.
public struct DocumentationPage: Sendable, CustomStringConvertible {
    /// The page's path relative to the package root (`README.md`, `docs/journal.md`).
    public let path: String
    /// The page's text.
    public let text: String

    public var description: String { path }

    /// The README first, then the pages of `docs/` in name order.
    /// - Throws: when the README or a page cannot be read as UTF-8.
    public static func all(root: URL = SwitchyardProcess.packageRoot) throws -> [DocumentationPage] {
        let docs = root.appendingPathComponent("docs")
        let pages = try FileManager.default.contentsOfDirectory(atPath: docs.path)
            .filter { $0.hasSuffix(".md") }
            .sorted()
            .map { "docs/" + $0 }
        return try (["README.md"] + pages).map { path in
            DocumentationPage(path: path, text: try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8))
        }
    }
}
