import Foundation
import Testing
@testable import switchyard

/// `man switchyard`: the page `switchyard help --man` prints, rendered by groff as man does.
struct ManPageTests {
    static let roff = ManPage(root: CommandTable.root, version: SwitchyardCommand.version).roff

    /// groff renders the page without a warning, and the rendering names every command, its
    /// options and its abstract.
    @Test(.enabled(if: Shell.available("groff"), "needs groff: install the Debian package groff-base"))
    func groffRendersEveryCommand() throws {
        let groff = try #require(Shell.path("groff"), "groff is not installed (Debian package groff-base)")
        let page = FileManager.default.temporaryDirectory.appendingPathComponent("switchyard-\(UUID().uuidString).1")
        defer { try? FileManager.default.removeItem(at: page) }
        try Self.roff.write(to: page, atomically: true, encoding: .utf8)
        // -ww: every warning; -rLL=200n: lines long enough that no usage line wraps; -P-cbu: plain text.
        let (status, rendered, warnings) = try Shell.run(groff, ["-man", "-Tutf8", "-ww", "-rLL=200n", "-P-c", "-P-b", "-P-u", page.path],
                                                         environment: ["LANG": "C.UTF-8"])
        #expect(status == 0)
        #expect(warnings.isEmpty, "groff warns: \(warnings)")
        #expect(rendered.contains("switchyard - an actor-based event bus"))
        for (path, spec) in CompletionScript(root: CommandTable.root).commands where !path.isEmpty && spec.subcommands.isEmpty {
            #expect(rendered.contains(spec.usageLine(path: path)), "the page lacks: \(spec.usageLine(path: path))")
            #expect(rendered.contains(spec.abstract), "the page lacks \(path)'s abstract")
            for option in spec.visibleOptions {
                #expect(rendered.contains(option.helpLabel), "the page lacks \(path) \(option.helpLabel)")
            }
        }
    }

    /// Text that roff would read as requests or escapes is escaped.
    @Test(arguments: [
        (#"a\b"#, #"a\eb"#), ("--json", #"\-\-json"#), (".hidden", #"\&.hidden"#), ("'quoted", #"\&'quoted"#), ("plain", "plain"),
        ("×50", #"\[u00D7]50"#),
    ])
    func escapes(text: String, expected: String) {
        #expect(ManPage.escaped(text) == expected)
    }
}
