import FoundationEssentials

/// What the parser found on a command line for one command.
struct ParsedArguments: Sendable, Equatable {
    /// The words that selected the command (`["journal", "show"]`).
    var path: [String]
    /// Positional values by their placeholder (`CONFIG`).
    var positionals: [String: String] = [:]
    /// Option values by long name; a flag's value is `""`.
    var options: [String: String] = [:]

    /// The positional called `name`, if given.
    subscript(positional name: String) -> String? { positionals[name] }

    /// Whether the flag `name` was given.
    func flag(_ name: String) -> Bool { options[name] != nil }

    /// The value of the option `name`, if given.
    func value(_ name: String) -> String? { options[name] }

    /// The value of `name` as an integer in `range`, if given.
    /// - Throws: ``UsageError`` naming the option when the value is not such an integer.
    func integer(_ name: String, in range: ClosedRange<Int> = 0...Int.max) throws(UsageError) -> Int? {
        guard let text = options[name] else { return nil }
        guard let number = Int(text), range.contains(number) else {
            let bounds = range.upperBound == Int.max ? "≥ \(range.lowerBound)" : "\(range.lowerBound)-\(range.upperBound)"
            throw UsageError("--\(name) expects an integer \(bounds), got \"\(text)\"", path: path)
        }
        return number
    }
}
