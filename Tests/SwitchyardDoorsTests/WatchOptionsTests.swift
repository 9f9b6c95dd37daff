import SwitchyardBus
import SwitchyardDoors
import Testing

/// The `buffer` and `overflow` members of a watch request.
struct WatchOptionsTests {
    /// Valid options parse and print back the same.
    @Test(arguments: [
        (#"{"op":"watch","actions":"*","buffer":16}"#, WatchOptions(buffer: 16)),
        (#"{"op":"watch","actions":"*","overflow":"drop-oldest"}"#, WatchOptions(overflow: .dropOldest)),
        (#"{"op":"watch","state":"","buffer":1,"overflow":"disconnect"}"#, WatchOptions(buffer: 1)),
    ])
    func parses(line: String, options: WatchOptions) throws {
        let request = try ControlRequest(line: Array(line.utf8))
        guard case .watch(_, _, let parsed) = request else {
            Issue.record("not a watch: \(request)")
            return
        }
        #expect(parsed == options)
        #expect(try ControlRequest(json: request.json) == request)
    }

    /// A bad buffer or overflow is an `invalid-field` error naming the member.
    @Test(arguments: [
        #"{"op":"watch","actions":"*","buffer":0}"#,
        #"{"op":"watch","actions":"*","buffer":"9"}"#,
        #"{"op":"watch","actions":"*","buffer":99999999}"#,
        #"{"op":"watch","actions":"*","overflow":"drop-newest"}"#,
    ])
    func rejects(line: String) {
        do {
            _ = try ControlRequest(line: Array(line.utf8))
            Issue.record("accepted \(line)")
        } catch {
            #expect(error.code == "invalid-field")
        }
    }
}
