import Foundation
import SwitchyardTestSupport
import Testing

/// The curl lines of docs/http.md, run as shown against a real bus (on a free port instead of
/// 8080): a dispatch with a JSON content type is accepted, and curl's default form type is
/// refused on purpose.
@Suite(.serialized)
struct HTTPDocumentationExampleTests {
    static let curl = ExternalTool(name: "curl", package: "curl")

    static let commands: [String] = {
        let page = (try? DocumentationPage.all())?.first { $0.path == "docs/http.md" }?.text ?? ""
        return page.matches(of: #/`(curl [^`]+)`/#).map { String($0.output.1) }
    }()

    @Test(.enabled(if: curl.testsEnabled, "needs curl: install the Debian package curl"))
    func documentedDispatchIsAccepted() async throws {
        let dispatch = try #require(Self.commands.first { $0.contains("/api/dispatch") }, "docs/http.md shows no curl dispatch")
        #expect(dispatch.contains("-H 'Content-Type: application/json'"))
        let (bus, port) = try await RunningBus.startServingHTTP()
        let local = dispatch.replacingOccurrences(of: "127.0.0.1:8080", with: "127.0.0.1:\(port)")
        let bash = ExternalTool(name: "bash", package: "bash")
        let accepted = try await bash.run(["-c", local + " --silent --show-error"])
        #expect(accepted.status == 0, "\(accepted.output)")
        #expect(accepted.output.range(of: #"^\{"id":\d+,"ok":true\}"#, options: .regularExpression) != nil, "\(local): \(accepted.output)")
        // Without the header curl sends a form type, which the bus refuses.
        let form = local.replacingOccurrences(of: "-H 'Content-Type: application/json' ", with: "")
        let refused = try await bash.run(["-c", form + " --silent --write-out ' %{http_code}'"])
        #expect(refused.output.hasSuffix(" 415"), "\(form): \(refused.output)")
        #expect(await bus.stop() == 0)
    }
}
