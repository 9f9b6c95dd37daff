extension PluginSettings {
    /// The path of a file the plugin reads, at `key` (required, a non-empty string): an absolute
    /// path as written; a relative one resolved against the configuration file's directory, as
    /// nginx and systemd units resolve theirs, so a configuration and the files beside it can be
    /// installed together and run from any working directory. A configuration parsed from text
    /// resolves against the working directory. Files a plugin writes (a logger's `to`) are not
    /// read through this: they stay relative to the working directory, which a service can write.
    ///
    /// Returns `""` with a problem recorded when the key is missing or not a non-empty string.
    public func inputPath(_ key: String) -> String {
        let path = requiredString(key)
        return Self.resolve(path, against: log.baseDirectory)
    }

    /// `path` resolved against `directory` (`""` or `.`: left relative, the working directory).
    static func resolve(_ path: String, against directory: String) -> String {
        guard !path.isEmpty, !path.hasPrefix("/"), !directory.isEmpty, directory != "." else { return path }
        return directory.hasSuffix("/") ? directory + path : directory + "/" + path
    }
}
