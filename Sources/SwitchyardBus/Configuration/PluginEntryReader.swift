/// Validates the entries of a configuration's `"plugins"` array one by one, remembering names
/// so that a duplicate is reported where it occurs.
struct PluginEntryReader {
    let expander: EnvironmentExpander
    let knownKinds: [String]
    let log: PluginSettings.Log
    /// Where relative input paths resolve (see ``PluginDeclaration/baseDirectory``).
    let baseDirectory: String
    /// Whether the problems of `${VAR}` references in an entry are held back in
    /// ``deferredEnvironmentProblems`` instead of logged: for reading a configuration only for
    /// its state slices, which may not need those values.
    let defersEnvironmentProblems: Bool
    /// What the entries read so far hold in credential positions.
    private(set) var credentials = CredentialPositions.Found()
    /// The held-back problems of `${VAR}` references, by the entry's path (`plugins[0]`).
    private(set) var deferredEnvironmentProblems: [String: [ConfigurationProblem]] = [:]
    private var firstUse: [String: String] = [:]

    init(expander: EnvironmentExpander, knownKinds: [String], log: PluginSettings.Log, baseDirectory: String,
         defersEnvironmentProblems: Bool = false) {
        self.expander = expander
        self.defersEnvironmentProblems = defersEnvironmentProblems
        self.baseDirectory = baseDirectory
        self.knownKinds = knownKinds.sorted()
        self.log = log
    }

    /// The declaration for `entry` at `path` (`plugins[2]`); problems go to the shared log, and
    /// `nil` is returned only when the entry is not an object at all.
    mutating func read(_ entry: JSON, path: String) -> PluginDeclaration? {
        guard case .object = entry else {
            log.problems.append(ConfigurationProblem(
                path: path,
                message: "expected a plugin object with \"name\" and \"kind\", got \(PluginSettings.quote(entry))"
            ))
            return nil
        }
        var environmentProblems: [ConfigurationProblem] = []
        var templates: [String: String] = [:]
        let expanded = expander.expand(entry, path: path, problems: &environmentProblems, templates: &templates,
                                       credentials: &credentials)
        log.environmentTemplates.merge(templates) { _, new in new }
        let members = expanded.objectValue ?? [:]
        let settings = PluginSettings(members, path: path, log: log, checksUnknownKeys: false)

        let name = settings.requiredString("name")
        if !name.isEmpty {
            checkName(name, settings: settings)
        }
        let kind = settings.requiredString("kind")
        if !kind.isEmpty, !knownKinds.contains(kind) {
            settings.problem("kind", unknownKindMessage(kind, settings: settings))
        }
        let restart = RestartPolicy.read("restart", from: settings)
        settings.reportUnknownKeys()
        if defersEnvironmentProblems {
            deferredEnvironmentProblems[path] = environmentProblems
        } else {
            log.problems.append(contentsOf: environmentProblems)
        }

        return PluginDeclaration(
            name: name,
            kind: kind,
            restart: restart,
            settings: members.filter { !PluginDeclaration.reservedKeys.contains($0.key) },
            path: path,
            environmentTemplates: templates.filter { templatePath, _ in
                !PluginDeclaration.reservedKeys.contains { reserved in
                    let reservedPath = SettingsPath.member(reserved, of: path)
                    return templatePath == reservedPath || templatePath.hasPrefix(reservedPath + ".")
                }
            },
            baseDirectory: baseDirectory
        )
    }

    private mutating func checkName(_ name: String, settings: PluginSettings) {
        guard PluginDeclaration.isValidName(name) else {
            settings.problem(
                "name",
                "expected a name of lower-case letters, digits and '-' starting with a letter, "
                    + "at most 64 characters, got \(settings.describe(.string(name), at: "name"))"
            )
            return
        }
        if let earlier = firstUse[name] {
            settings.problem(
                "name",
                "duplicate plugin name \(settings.describe(.string(name), at: "name")) (already used by \(earlier))"
            )
        } else {
            firstUse[name] = settings.path
        }
    }

    /// Names the kind as written; one from the environment is shown as its reference and gets
    /// no suggestion, which would hint at the value.
    private func unknownKindMessage(_ kind: String, settings: PluginSettings) -> String {
        var message = "unknown kind \(settings.describe(.string(kind), at: "kind"))"
        if settings.environmentTemplate(at: "kind") == nil,
            let suggestion = DidYouMean.suggestion(for: kind, among: knownKinds)
        {
            message += "; did you mean \(JSON.string(suggestion).serialized())?"
        } else {
            message += ";"
        }
        if knownKinds.isEmpty {
            return message + " no plugin kinds are registered"
        }
        return message + " known kinds: " + knownKinds.joined(separator: ", ")
    }
}
