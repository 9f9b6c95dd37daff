import Foundation
import SwitchyardTestSupport

/// The offline demo (`switchyard run`, Config/default.json) running in a sandbox of its own,
/// as a reader of the documentation starts it in the checkout: for examples that are its clients.
struct DemoBus {
    let sandbox: TemporaryDirectory
    let process: SwitchyardProcess

    /// Starts the demo and returns once it is ready and has reported a location, which the
    /// documented clients (`state location…`, `tail 'location/*'`) read.
    static func start() async throws -> DemoBus {
        let sandbox = try TemporaryDirectory.sandbox()
        let process = try SwitchyardProcess(["run"], directory: sandbox.url)
        let demo = DemoBus(sandbox: sandbox, process: process)
        guard await process.wait(until: { $0.stderr.contains("ready:") }) else {
            throw DemoFailure(description: "the demo did not become ready; stderr:\n\(process.stderr)")
        }
        guard await process.wait(until: { $0.stdout.contains("location/changed") }) else {
            throw DemoFailure(description: "the demo reported no location; stdout:\n\(process.stdout)")
        }
        return demo
    }

    struct DemoFailure: Error, CustomStringConvertible {
        let description: String
    }
}
