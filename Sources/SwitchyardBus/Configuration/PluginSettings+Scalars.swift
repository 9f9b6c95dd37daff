extension PluginSettings {
    /// The longest duration ``seconds(_:default:range:)`` accepts, about 31 years; more is a typo
    /// and would overflow `Duration`.
    static let maximumSeconds = 1e9

    // MARK: Strings

    /// The string at `key`, or `nil` when absent or not a string (a problem).
    public func string(_ key: String) -> String? {
        guard let found = value(key) else { return nil }
        guard case .string(let text) = found else {
            problem(key, "expected a string, got \(describe(found, at: key))")
            return nil
        }
        return text
    }

    /// The string at `key`, or `defaultValue` when absent or not a string (a problem).
    public func string(_ key: String, default defaultValue: String) -> String {
        string(key) ?? defaultValue
    }

    /// The non-empty string at `key`; a missing key (`missing required key "url"`, reported at
    /// this reader's path), a non-string or an empty string is a problem and gives `""`.
    public func requiredString(_ key: String) -> String {
        guard contains(key) else {
            _ = value(key)
            problem("", "missing required key \(JSON.string(key).serialized())")
            return ""
        }
        guard let text = string(key) else { return "" }
        if text.isEmpty {
            problem(key, "expected a non-empty string, got \"\"")
        }
        return text
    }

    /// The string at `key` when it is one of `allowed`, else `defaultValue`; any other value is a
    /// problem listing the allowed ones (`expected one of "text", "json", got "xml"`).
    public func oneOf(_ key: String, _ allowed: [String], default defaultValue: String) -> String {
        guard let found = value(key) else { return defaultValue }
        if case .string(let text) = found, allowed.contains(text) {
            return text
        }
        let choices = allowed.map { JSON.string($0).serialized() }.joined(separator: ", ")
        var message = "expected one of \(choices), got \(describe(found, at: key))"
        if case .string(let text) = found, environmentTemplate(at: key) == nil,
            let suggestion = DidYouMean.suggestion(for: text, among: allowed)
        {
            message += "; did you mean \(JSON.string(suggestion).serialized())?"
        }
        problem(key, message)
        return defaultValue
    }

    /// The enumeration case whose raw value is the string at `key`, as ``oneOf(_:_:default:)``
    /// reads it with every case allowed.
    public func oneOf<Choice: RawRepresentable & CaseIterable>(
        _ key: String,
        default defaultValue: Choice
    ) -> Choice where Choice.RawValue == String {
        let raw = oneOf(key, Choice.allCases.map(\.rawValue), default: defaultValue.rawValue)
        return Choice(rawValue: raw) ?? defaultValue
    }

    /// The action type pattern at `key` (`*`, `domain/*`, `*/event`, `domain/event`, or several
    /// separated by spaces), or `defaultValue` when absent or invalid (a problem that explains
    /// the forms).
    public func typePattern(_ key: String, default defaultValue: TypePattern) -> TypePattern {
        guard let found = value(key) else { return defaultValue }
        if case .string(let text) = found, let pattern = TypePattern(text) {
            return pattern
        }
        problem(
            key,
            "expected an action type pattern: \"*\" (every action), \"domain/*\" (every action of a domain) "
                + "or \"domain/event\" (lower-case letters, digits, '-', '_' and '.'), \"*/event\" (that event of every domain), "
                + "or several separated by spaces, got \(describe(found, at: key))"
        )
        return defaultValue
    }

    // MARK: Numbers and booleans

    /// The integer at `key`, or `nil` when absent, not an integer or outside `range` (a problem:
    /// `expected an integer 1-65535, got "abc"`).
    public func int(_ key: String, range: ClosedRange<Int>? = nil) -> Int? {
        number(key, \.intValue, in: range, expected: Self.describeInteger(range))
    }

    /// The integer at `key`, or `defaultValue` when absent or invalid (a problem).
    public func int(_ key: String, default defaultValue: Int, range: ClosedRange<Int>? = nil) -> Int {
        int(key, range: range) ?? defaultValue
    }

    /// The number at `key`, or `nil` when absent, not a number or outside `range` (a problem).
    public func double(_ key: String, range: ClosedRange<Double>? = nil) -> Double? {
        number(key, \.doubleValue, in: range, expected: "a number\(Self.describe(range))")
    }

    /// The number `read` finds at `key`, or `nil` when absent, of the wrong kind or outside
    /// `range` (a problem: `expected` it, got what was there).
    private func number<Number: Comparable>(
        _ key: String,
        _ read: (JSON) -> Number?,
        in range: ClosedRange<Number>?,
        expected: @autoclosure () -> String
    ) -> Number? {
        guard let found = scalar(key) else { return nil }
        if let number = read(found), range?.contains(number) ?? true {
            return number
        }
        problem(key, "expected \(expected()), got \(describe(found, at: key))")
        return nil
    }

    /// The number at `key`, or `defaultValue` when absent or invalid (a problem).
    public func double(_ key: String, default defaultValue: Double, range: ClosedRange<Double>? = nil) -> Double {
        double(key, range: range) ?? defaultValue
    }

    /// The boolean at `key`, or `nil` when absent or not `true`/`false` (a problem).
    public func bool(_ key: String) -> Bool? {
        guard let found = scalar(key) else { return nil }
        if case .bool(let flag) = found {
            return flag
        }
        problem(key, "expected true or false, got \(describe(found, at: key))")
        return nil
    }

    /// The boolean at `key`, or `defaultValue` when absent or invalid (a problem).
    public func bool(_ key: String, default defaultValue: Bool) -> Bool {
        bool(key) ?? defaultValue
    }

    /// The number of seconds at `key` as a `Duration`, or `nil` when absent or invalid (a
    /// problem). Without `range` the number must be greater than 0; either way at most 10⁹.
    public func seconds(_ key: String, range: ClosedRange<Double>? = nil) -> Duration? {
        guard let found = scalar(key) else { return nil }
        let requirement = range.map { Self.describe($0) } ?? " > 0"
        guard let number = found.doubleValue, range?.contains(number) ?? (number > 0) else {
            problem(key, "expected a number of seconds\(requirement), got \(describe(found, at: key))")
            return nil
        }
        guard number <= Self.maximumSeconds else {
            problem(key, "expected a number of seconds at most 1000000000, got \(describe(found, at: key))")
            return nil
        }
        return .seconds(number)
    }

    /// The number of seconds at `key` as a `Duration`, or `defaultValue` when absent or invalid
    /// (a problem: `expected a number of seconds > 0, got -1`).
    public func seconds(_ key: String, default defaultValue: Duration, range: ClosedRange<Double>? = nil) -> Duration {
        seconds(key, range: range) ?? defaultValue
    }

    // MARK: Helpers

    /// The value at `key`, where a string that came from the environment stands for the number
    /// or boolean it spells (`"${GPSD_PORT:-2947}"` → `2947`).
    private func scalar(_ key: String) -> JSON? {
        guard let found = value(key) else { return nil }
        if case .string(let text) = found, environmentTemplate(at: key) != nil,
            let parsed = try? JSON(parsing: text)
        {
            switch parsed {
            case .integer, .number, .bool: return parsed
            case .null, .string, .array, .object: break
            }
        }
        return found
    }

    private static func describeInteger(_ range: ClosedRange<Int>?) -> String {
        guard let range else { return "an integer" }
        switch (range.lowerBound, range.upperBound) {
        case (.min, .max): return "an integer"
        case (let lower, .max): return "an integer >= \(lower)"
        case (.min, let upper): return "an integer <= \(upper)"
        case (let lower, let upper) where lower >= 0: return "an integer \(lower)-\(upper)"
        case (let lower, let upper): return "an integer from \(lower) to \(upper)"
        }
    }

    /// ` 0-1`, ` >= 0.5`, ` from -90 to 90`, or nothing for no range.
    private static func describe(_ range: ClosedRange<Double>?) -> String {
        guard let range else { return "" }
        let lower = format(range.lowerBound)
        let upper = format(range.upperBound)
        switch (range.lowerBound.isFinite, range.upperBound.isFinite) {
        case (false, false): return ""
        case (true, false): return " >= \(lower)"
        case (false, true): return " <= \(upper)"
        case (true, true): return range.lowerBound >= 0 ? " \(lower)-\(upper)" : " from \(lower) to \(upper)"
        }
    }

    private static func format(_ number: Double) -> String {
        if number == number.rounded(), abs(number) < 1e15 {
            return String(Int64(number))
        }
        return number.description
    }
}
