extension BusConfiguration {
    /// Reads a configuration file for its state slices only, as a command that reduces recorded
    /// actions without running a plugin needs it (`journal diff --config`, `replay --effects
    /// off`): the bus section and each entry's structure are validated as ``load(contentsOf:environment:registry:)``
    /// does, and each plugin's settings as far as its slice needs them
    /// (``PluginRegistry/sliceProblems(in:)``).
    ///
    /// A `${VAR}` in a plugin entry whose variable is unset stays in the settings as written
    /// and is no problem unless that entry's slice cannot be made: a network-fetch plugin's
    /// `PLACES_URL` or a token is the running plugin's business, not the reducer's.
    ///
    /// - Throws: ``ConfigurationError`` with every problem, unset variables only for the
    ///   entries whose slices could not be made.
    public static func loadForSlices(
        contentsOf path: String, environment: [String: String], registry: PluginRegistry
    ) throws(ConfigurationError) -> BusConfiguration {
        try validate(try topLevel(try fileBytes(path), file: path), file: path, baseDirectory: path.parentDirectory,
                     environment: environment, knownKinds: registry.kinds, slicesOnly: true,
                     checkPlugin: registry.sliceProblems(in:))
    }
}
