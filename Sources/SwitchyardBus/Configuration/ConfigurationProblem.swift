/// One thing wrong with a configuration: where (a key path) and why.
///
/// Paths name members with `.` and array elements with `[index]`: `plugins[2].port`,
/// `bus.journal.fsync`; the empty path is the document itself.
public struct ConfigurationProblem: Sendable, Hashable, CustomStringConvertible {
    /// The key path of the offending value, such as `plugins[2].port`; empty for the document.
    public var path: String
    /// What is wrong, such as `expected an integer 1-65535, got "abc"`.
    public var message: String

    /// Creates a problem at `path`.
    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// `plugins[2].port: expected an integer 1-65535, got "abc"`, or just the message at the root.
    public var description: String {
        path.isEmpty ? message : "\(path): \(message)"
    }
}

/// Builds key paths the way problems print them.
enum SettingsPath {
    /// `plugins[2]` + `port` → `plugins[2].port`; a member of the root is the bare key.
    static func member(_ key: String, of path: String) -> String {
        if key.isEmpty { return path }
        return path.isEmpty ? key : path + "." + key
    }

    /// `plugins` + `2` → `plugins[2]`.
    static func element(_ index: Int, of path: String) -> String {
        "\(path)[\(index)]"
    }
}
