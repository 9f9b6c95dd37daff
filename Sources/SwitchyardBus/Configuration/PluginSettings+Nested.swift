/// Readers for values of free form and for nested objects, arrays and maps.
extension PluginSettings {
    /// The value at `key` as it is, or `nil` when absent; for settings of free form such as a
    /// payload template.
    public func json(_ key: String) -> JSON? {
        value(key)
    }

    /// A reader over the object at `key`, sharing this reader's problems; `nil` when absent or
    /// not an object (a problem).
    public func object(_ key: String) -> PluginSettings? {
        guard let found = value(key) else { return nil }
        guard case .object(let members) = found else {
            problem(key, "expected an object, got \(describe(found, at: key))")
            return nil
        }
        return child(members, path: keyPath(key))
    }

    /// Readers over the objects of the array at `key` (`plugins[2].routes[0]`, …); empty when
    /// absent. A non-array, or an element that is not an object, is a problem and is skipped.
    public func array(_ key: String) -> [PluginSettings] {
        elements(key, expected: "an array of objects").compactMap { path, element in
            guard case .object(let members) = element else {
                mismatch(at: path, expected: "an object", got: element)
                return nil
            }
            return child(members, path: path)
        }
    }

    /// The object of strings at `key`, such as HTTP headers; empty when absent. A member that is
    /// not a string is a problem at its own path and is left out.
    public func stringMap(_ key: String) -> [String: String] {
        guard let found = value(key) else { return [:] }
        guard case .object(let members) = found else {
            problem(key, "expected an object of strings, got \(describe(found, at: key))")
            return [:]
        }
        let mapPath = keyPath(key)
        var strings: [String: String] = [:]
        for name in members.keys.sorted() {
            let member = members[name].unsafelyUnwrapped
            let memberPath = SettingsPath.member(name, of: mapPath)
            guard case .string(let text) = member else {
                mismatch(at: memberPath, expected: "a string", got: member)
                continue
            }
            strings[name] = text
        }
        return strings
    }

    /// The array of strings at `key`; empty when absent. A non-array or an element that is not
    /// a string is a problem.
    public func strings(_ key: String) -> [String] {
        elements(key, expected: "an array of strings").compactMap { path, element in
            if case .string(let text) = element { return text }
            mismatch(at: path, expected: "a string", got: element)
            return nil
        }
    }

    /// The elements of the array at `key`, each with its path; none when absent, and a problem
    /// when it is not an array (`expected` says of what).
    private func elements(_ key: String, expected: String) -> [(path: String, element: JSON)] {
        guard let found = value(key) else { return [] }
        guard case .array(let elements) = found else {
            problem(key, "expected \(expected), got \(describe(found, at: key))")
            return []
        }
        let arrayPath = keyPath(key)
        return elements.enumerated().map { (SettingsPath.element($0.offset, of: arrayPath), $0.element) }
    }

    /// Records that the value at `path` is not what was `expected` (`expected a string, got 3`).
    private func mismatch(at path: String, expected: String, got value: JSON) {
        log.problems.append(ConfigurationProblem(path: path, message: "expected \(expected), got \(describe(value, atPath: path))"))
    }
}
