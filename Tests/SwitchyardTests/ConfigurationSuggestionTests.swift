import SwitchyardBus
import SwitchyardDoors
import Testing

struct ConfigurationSuggestionTests {
    /// Edit distance counts insertions, deletions, substitutions and swaps of adjacent letters.
    @Test(arguments: [
        ("", "", 0), ("", "abc", 3), ("abc", "", 3), ("kitten", "sitting", 3),
        ("interval", "intervall", 1), ("interval", "intreval", 1), ("flaw", "lawn", 2), ("héllo", "hello", 1),
        ("path", "paht", 1), ("tail", "tial", 1), ("ab", "ba", 1), ("abc", "ca", 3),
    ])
    func editDistance(first: String, second: String, distance: Int) {
        #expect(DidYouMean.editDistance(first, second) == distance)
        #expect(DidYouMean.editDistance(second, first) == distance)
    }

    /// A suggestion is offered only within max(1, length / 3) edits, ignoring case.
    @Test(arguments: [
        ("intervall", "interval"),
        ("INTERVAL", "interval"),
        ("fsynk", "fsync"),
        ("hst", "host"),
        ("ab", nil),
        ("xyz", nil),
        ("datadirectory", "dataDirectory"),
        ("plugin", "plugins"),
        ("hsot", "host"),
    ] as [(String, String?)])
    func suggestion(input: String, expected: String?) {
        let candidates = ["interval", "fsync", "host", "dataDirectory", "plugins", "abcd"]
        #expect(DidYouMean.suggestion(for: input, among: candidates) == expected)
    }

    /// Ties go to the candidate that sorts first, whatever the candidates' order.
    @Test func tiesAreDeterministic() {
        #expect(DidYouMean.suggestion(for: "cat", among: ["cut", "bat"]) == "bat")
        #expect(DidYouMean.suggestion(for: "cat", among: ["bat", "cut"]) == "bat")
        #expect(DidYouMean.suggestion(for: "port", among: ["port"]) == nil)
    }
}

struct ControlSuggestionTests {
    /// A misspelt member of a control request gets a did-you-mean, swapped letters included.
    @Test(arguments: [
        (#"{"op":"state","paht":"x"}"#, "did you mean \"path\"?"),
        (#"{"op":"watch","actoins":"*"}"#, "did you mean \"actions\"?"),
        (#"{"op":"dispatch","action":{"tpye":"a/b"}}"#, "did you mean \"type\"?"),
    ])
    func misspeltMember(line: String, suggestion: String) {
        #expect {
            _ = try ControlRequest(line: Array(line.utf8))
        } throws: { error in
            (error as? ControlError).map { "\($0)".contains(suggestion) } ?? false
        }
    }
}
