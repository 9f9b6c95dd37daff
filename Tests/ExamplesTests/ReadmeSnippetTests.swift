import Foundation
import SwitchyardSnippets
import SwitchyardTestSupport
import Testing

/// The Swift blocks of the README and of every page in `docs/`: each one quotes a snippet file
/// under `Examples/Snippets` verbatim (that file compiles with the package and runs below), or is
/// marked as a fragment with a reason. A new unmarked block fails here, and so in CI.
struct ReadmeSnippetTests {
    private static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    private static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    private static var blocks: [ReadmeBlocks.Block] {
        get throws { try DocumentationPage.all(root: root).flatMap { ReadmeBlocks.swiftBlocks(in: $0.text, file: $0.path) } }
    }

    /// The snippet files the README and the docs are expected to quote (all but the shared
    /// `Printed` helper).
    private static let snippetFiles = [
        "Opening.swift", "TypedStore.swift", "EffectPolicies.swift", "TestingAStore.swift", "Subscribing.swift",
        "EmbeddingTheBus.swift", "TestingAPlugin.swift", "DataDirectory.swift",
    ]

    /// Every Swift block is either a snippet quoted from a file or a fragment with a reason.
    @Test func everyBlockIsCheckedOrAFragment() throws {
        let blocks = try Self.blocks
        #expect(!blocks.isEmpty)
        for block in blocks where block.snippetPath == nil && block.fragmentReason == nil {
            Issue.record("""
                \(block) is a Swift block without a marker: put <!-- snippet: Examples/Snippets/NAME.swift --> \
                before it (and the code in that file, run by a test), or <!-- fragment: why it cannot run -->
                """)
        }
        // Exemptions stay rare: a manifest excerpt cannot compile in a test.
        #expect(blocks.filter { $0.fragmentReason != nil }.count <= 1, "\(blocks.filter { $0.fragmentReason != nil })")
    }

    /// Each snippet block is exactly what its file shows.
    @Test func blocksQuoteTheirFilesVerbatim() throws {
        for block in try Self.blocks {
            guard let path = block.snippetPath else { continue }
            let file = try Self.text(path)
            let shown = ReadmeBlocks.shownText(ofSnippet: file)
            #expect(block.code == shown, "\(block) differs from \(path); its page must quote it verbatim")
        }
    }

    /// Every snippet file is quoted once, on one page or another, and nothing else sits in the folder.
    @Test func everySnippetFileIsQuoted() throws {
        let quoted = try Self.blocks.compactMap(\.snippetPath)
        #expect(quoted.sorted() == Self.snippetFiles.map { "Examples/Snippets/" + $0 }.sorted())
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("Examples/Snippets").path)
        #expect(files.sorted() == (Self.snippetFiles + ["Printed.swift"]).sorted())
    }

    /// The README shows the library in five snippets, in reading order; the others are on the
    /// pages of `docs/`.
    @Test func readmeShowsTheLibraryInFiveSnippets() throws {
        let inReadme = try Self.blocks.filter { $0.file == "README.md" }.compactMap(\.snippetPath)
        #expect(inReadme == ["Opening.swift", "TypedStore.swift", "EffectPolicies.swift", "Subscribing.swift", "EmbeddingTheBus.swift"]
            .map { "Examples/Snippets/" + $0 })
    }

    /// The TestStore block is the whole example: the state, actions, reducer and middleware it
    /// uses are shown, none left hidden in its file.
    @Test func testStoreBlockShowsTheWholeExample() throws {
        let block = try #require(try Self.blocks.first { $0.snippetPath == "Examples/Snippets/TestingAStore.swift" })
        for declaration in ["struct Stopwatch", "enum StopwatchAction", "func stopwatchReducer", "func ticking"] {
            #expect(block.code.contains(declaration), "\(block) does not show `\(declaration)`")
        }
    }

    /// Hidden regions are dropped with their markers and each shown region is moved left.
    @Test func shownTextDropsHiddenRegions() {
        let source = """
            // snippet.hide
            // a note
            // snippet.show
            import A

            // snippet.hide
            func wrapper() {
                // snippet.show
                let x = 1
                    .description
                // snippet.hide
            }
            """
        #expect(ReadmeBlocks.shownText(ofSnippet: source) == "import A\n\nlet x = 1\n    .description")
    }

    /// A block's marker is the comment line before its fence, blank lines skipped.
    @Test func blocksFindTheirMarkers() {
        let markdown = "<!-- snippet: Examples/Snippets/A.swift -->\n```swift\nlet a = 1\n```\ntext\n```sh\nls\n```\n```swift\nb\n```\n"
        let blocks = ReadmeBlocks.swiftBlocks(in: markdown)
        #expect(blocks.map(\.line) == [2, 9])
        #expect(blocks.map(\.snippetPath) == ["Examples/Snippets/A.swift", nil])
        #expect(blocks.map(\.code) == ["let a = 1", "b"])
    }

    // MARK: The snippets run

    /// The opening snippet prints 5.
    @Test func opening() async {
        let output = Printed()
        await openingSnippet(output)
        #expect(output.all == ["5"])
    }

    /// The typed store reaches "loaded" with the middleware's results.
    @Test func typedStore() async {
        let output = Printed()
        let results = await typedStoreSnippet(output)
        #expect(results == ["coffee house", "coffee corner"])
        #expect(output.all.last == "status: loaded")
    }

    /// The effect-policy middleware loads what it searched for.
    @Test func effectPolicies() async {
        #expect(await effectPoliciesSnippet(query: "tea") == ["tea house", "tea corner"])
    }

    /// The TestStore snippet passes its own checks (a failed one would be an issue here).
    @Test func testingAStore() async {
        await testingAStoreSnippet()
    }

    /// A subscription made before sending keeps what was sent.
    @Test func subscribing() async {
        let output = Printed()
        #expect(await subscribingSnippet(output) == 1)
        #expect(output.all.isEmpty)
    }

    /// The embedded bus prints three beats of its own plugin kind and stops.
    @Test(.timeLimit(.minutes(2))) func embeddingTheBus() async throws {
        let output = Printed()
        try await embeddingTheBusSnippet(output)
        #expect(output.all.count == 3)
        #expect(output.all.allSatisfy { $0.hasPrefix("pulse/beat ") })
    }

    /// The TestBus snippet sees one beat from the plugin on the manual clock.
    @Test func testingAPlugin() async throws {
        let output = Printed()
        try await testingAPluginSnippet(output)
        #expect(output.all == ["pulse 1"])
    }

    /// The data-directory bus journals, dispatches and reloads.
    @Test func dataDirectory() async throws {
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("switchyard-snippet-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: parent) }
        let output = Printed()
        let result = try await dataDirectorySnippet(output, parent: parent)
        #expect(result.added == ["pulse"])
        let id = try #require(result.id)
        let last = try #require(output.all.first.flatMap { UInt64($0) })
        #expect(last >= id)
    }
}
