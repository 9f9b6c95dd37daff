extension BusConfiguration {
    /// Reads only what a client of a running bus needs from the configuration file at `path`:
    /// its `bus` section (the name and data directory), expanded against `environment`.
    ///
    /// The plugin entries are not expanded or checked — their values (a server's URL, a
    /// password) are the running bus's business — so `switchyard send --config FILE` works in a
    /// shell that lacks the server's variables. The file must still be a JSON object with a
    /// `plugins` array, so a client pointed at the wrong file says so.
    ///
    /// - Throws: ``ConfigurationError`` when the file cannot be read or is not JSON, for a
    ///   problem in the `bus` section (an unset variable there included), for unknown top-level
    ///   keys and for a missing or mistyped `plugins`.
    public static func loadBusSettings(contentsOf path: String, environment: [String: String]) throws(ConfigurationError) -> BusSettings {
        let members = try topLevel(try fileBytes(path), file: path)
        let log = PluginSettings.Log()
        var credentials = CredentialPositions.Found()
        let (root, bus) = readBusSection(
            of: members, expander: EnvironmentExpander(environment: environment), log: log, credentials: &credentials)
        _ = pluginEntries(of: root)
        root.reportUnknownKeys()
        let secrets = Secrets(credentials: credentials, environment: environment, publicVariables: Set(bus.publicVariables))
        guard log.problems.isEmpty else {
            throw ConfigurationError(file: path, problems: log.problems.map { $0.redacted(secrets) })
        }
        return bus
    }

    /// The bytes of the configuration file at `path`.
    static func fileBytes(_ path: String) throws(ConfigurationError) -> [UInt8] {
        do {
            return try ConfigurationFile.read(path)
        } catch {
            throw ConfigurationError(file: path, path: "", message: error.description)
        }
    }

    /// The members of the top-level object of a configuration's bytes; a JSON error, or a byte
    /// order mark, is a problem at the top of `file`.
    static func topLevel(_ bytes: [UInt8], file: String) throws(ConfigurationError) -> [String: JSON] {
        // JSON has no byte order mark (RFC 8259 §8.1); some Windows editors add one.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            throw ConfigurationError(
                file: file, path: "",
                message: "the file starts with a UTF-8 byte order mark (BOM, bytes EF BB BF); save it as UTF-8 without a BOM")
        }
        let document: JSON
        do {
            document = try JSON(parsingInput: bytes)
        } catch {
            throw ConfigurationError(file: file, path: "", message: error.description)
        }
        guard case .object(let members) = document else {
            throw ConfigurationError(
                file: file, path: "",
                message: "expected an object with a \"plugins\" array at the top level, got \(document.kindDescription)")
        }
        return members
    }

    /// The `plugins` array, or `nil` with a problem recorded when it is missing or not an array.
    static func pluginEntries(of root: PluginSettings) -> [JSON]? {
        switch root.json("plugins") {
        case .array(let entries):
            return entries
        case nil:
            root.problem("", "missing required key \"plugins\" (an array of plugin objects)")
        case let other?:
            root.problem("plugins", "expected an array of plugin objects, got \(PluginSettings.quote(other))")
        }
        return nil
    }
}
