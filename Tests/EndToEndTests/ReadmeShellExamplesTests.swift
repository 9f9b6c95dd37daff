import Foundation
import SwitchyardTestSupport
import Testing

/// The runnable shell examples of the README and of every page in `docs/`: each code block after
/// a `<!-- readme-check -->` comment holds `$ switchyard …` lines (or `$ swift run switchyard …`),
/// each followed by the output it shows. The test runs every one with the real executable in a
/// sandbox (see ``SwitchyardProcess``) and compares the output's shape (times, ids and other
/// numbers may differ, and the width of the space between words; a line ending in `...` matches
/// any rest). After `<!-- readme-check: demo -->` the commands are clients of the offline demo
/// (`switchyard run`), which the test starts in the sandbox first.
@Suite(.serialized)
struct ReadmeShellExamplesTests {
    struct Example: Sendable, CustomTestStringConvertible {
        let page: String
        let arguments: [String]
        let expected: [String]
        /// Whether the commands need the demo bus running.
        var demo = false
        var testDescription: String { "\(page): switchyard " + arguments.joined(separator: " ") }
    }

    static let examples: [Example] = {
        // An unreadable page leaves its examples out; `documentationHasCheckedExamples` notices.
        (try? DocumentationPage.all())?.flatMap { examples(on: $0) } ?? []
    }()

    /// The checked examples of one page, in order.
    static func examples(on page: DocumentationPage) -> [Example] {
        var examples: [Example] = []
        var lines = page.text.components(separatedBy: "\n")[...]
        while let line = lines.popFirst() {
            let marker = line.trimmingCharacters(in: .whitespaces)
            guard marker == "<!-- readme-check -->" || marker == "<!-- readme-check: demo -->" else { continue }
            guard lines.popFirst()?.hasPrefix("```") == true else { continue }
            var current: (arguments: [String], expected: [String])?
            func finish() {
                guard let current else { return }
                examples.append(Example(page: page.path, arguments: current.arguments, expected: current.expected, demo: marker.hasSuffix("demo -->")))
            }
            while let body = lines.popFirst(), !body.hasPrefix("```") {
                if let command = ["$ switchyard", "$ swift run switchyard"].first(where: body.hasPrefix) {
                    finish()
                    current = (words(String(body.dropFirst(command.count))), [])
                } else {
                    current?.expected.append(body)
                }
            }
            finish()
        }
        return examples
    }

    /// The documentation marks examples to check, so this test cannot pass on nothing.
    @Test func documentationHasCheckedExamples() {
        #expect(Self.examples.count >= 4)
        #expect(Self.examples.filter(\.demo).count >= 5)
    }

    /// Each example prints what the README shows, in shape.
    @Test(arguments: examples)
    func exampleOutputMatches(example: Example) async throws {
        let demo = example.demo ? try await DemoBus.start() : nil
        let process = try SwitchyardProcess(example.arguments, directory: demo?.sandbox.url)
        _ = await process.exitStatus()
        if let demo { #expect(await demo.process.stop() == 0) }
        let output = (process.stdout + process.stderr).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let actual = Array(output.reversed().drop { $0.isEmpty }.reversed())
        #expect(actual.count == example.expected.count, "\(example.page) shows:\n\(example.expected.joined(separator: "\n"))\nactual:\n\(actual.joined(separator: "\n"))")
        for (shown, real) in zip(example.expected, actual) {
            #expect(Self.matches(shown: shown, real: real), "\(example.page): \(shown)\nactual: \(real)")
        }
    }

    /// Whether `real` has the shape of the documentation's `shown` line.
    static func matches(shown: String, real: String) -> Bool {
        let shownShape = shape(shown)
        if shownShape.hasSuffix("...") { return shape(real).hasPrefix(String(shownShape.dropLast(3))) }
        return shownShape == shape(real)
    }

    /// A line with its times and numbers replaced by placeholders (sizes by `0 B`), runs of spaces
    /// by one, trailing spaces dropped.
    static func shape(_ line: String) -> String {
        line.replacingOccurrences(of: #"\d{4}-\d\d-\d\dT[0-9:.]+Z"#, with: "TIME", options: .regularExpression)
            .replacingOccurrences(of: #"\d+(\.\d+)?"#, with: "0", options: .regularExpression)
            .replacingOccurrences(of: #"\b0 [KMG]?B\b"#, with: "0 B", options: .regularExpression)
            .replacingOccurrences(of: #" {2,}"#, with: " ", options: .regularExpression)
            .replacingOccurrences(of: #" +$"#, with: "", options: .regularExpression)
    }

    /// Shell words: spaces separate, single and double quotes group.
    static func words(_ text: String) -> [String] {
        var words: [String] = []
        var current = ""
        var quote: Character?
        var inWord = false
        for character in text {
            if let open = quote {
                if character == open { quote = nil } else { current.append(character) }
            } else if character == "'" || character == "\"" {
                quote = character
                inWord = true
            } else if character == " " {
                if inWord { words.append(current) }
                current = ""
                inWord = false
            } else {
                current.append(character)
                inWord = true
            }
        }
        if inWord { words.append(current) }
        return words
    }
}
