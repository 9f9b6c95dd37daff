import Foundation
import SwitchyardTestSupport
import Testing

/// The "from any language" examples of docs/control-protocol.md, run as shown against the
/// demo: the socket path they name is the demo's.
@Suite(.serialized)
struct ControlProtocolExampleTests {
    static let python = ExternalTool(name: "python3", package: "python3")
    static let socat = ExternalTool(name: "socat", package: "socat")

    static let page: String = {
        (try? DocumentationPage.all())?.first { $0.path == "docs/control-protocol.md" }?.text ?? ""
    }()

    /// The Python block dispatches an action and prints the reply.
    @Test(.enabled(if: python.testsEnabled, "needs python3: install the Debian package python3"))
    func pythonExampleDispatches() async throws {
        let lines = Self.page.components(separatedBy: "\n")
        let start = try #require(lines.firstIndex(of: "```python"), "docs/control-protocol.md has no Python example")
        let end = try #require(lines[(start + 1)...].firstIndex(of: "```"))
        let demo = try await DemoBus.start()
        let script = try demo.sandbox.write("example.py", lines[(start + 1)..<end].joined(separator: "\n") + "\n")
        let result = try await Self.python.run([script], in: demo.sandbox.url)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.range(of: #"^\{"id":\d+,"ok":true\}"#, options: .regularExpression) != nil, "\(result.output)")
        #expect(await demo.process.stop() == 0)
    }

    /// The socat line prints the state.
    @Test(.enabled(if: socat.testsEnabled, "needs socat: install the Debian package socat"))
    func socatExampleReadsTheState() async throws {
        let command = try #require(Self.page.firstMatch(of: #/`(echo [^`]*\| socat [^`]*)`/#)?.output.1, "no socat example")
        let demo = try await DemoBus.start()
        let result = try await ExternalTool(name: "bash", package: "bash").run(["-c", String(command)], in: demo.sandbox.url)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.hasPrefix(#"{"ok":true,"#) || result.output.contains(#""ok":true"#), "\(result.output)")
        #expect(result.output.contains(#""location""#), "\(result.output)")
        #expect(await demo.process.stop() == 0)
    }
}
