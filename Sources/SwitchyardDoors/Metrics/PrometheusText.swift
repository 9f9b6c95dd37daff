import FoundationEssentials

/// Writes the Prometheus text exposition format, version 0.0.4: one `# HELP` and `# TYPE`
/// line per metric family, then its samples, with label values escaped (`\\`, `\"`, `\n`).
///
/// A family is written once however many samples it has, as the format requires; samples
/// of one family must be added together.
struct PrometheusText: Sendable {
    /// The kinds of metric families used here.
    enum Kind: String, Sendable {
        case counter
        case gauge
        case histogram
    }

    private(set) var text = ""

    /// Starts a family: its help text and type.
    mutating func family(_ name: String, _ kind: Kind, _ help: String) {
        text += "# HELP \(name) \(Self.escapeHelp(help))\n# TYPE \(name) \(kind.rawValue)\n"
    }

    /// One sample of the current family.
    mutating func sample(_ name: String, _ labels: [(String, String)] = [], _ value: Double) {
        text += name
        if !labels.isEmpty {
            text += "{" + labels.map { "\($0.0)=\"\(Self.escapeLabel($0.1))\"" }.joined(separator: ",") + "}"
        }
        text += " " + Self.format(value) + "\n"
    }

    /// A family with one sample and no labels.
    mutating func single(_ name: String, _ kind: Kind, _ help: String, _ value: Double) {
        family(name, kind, help)
        sample(name, [], value)
    }

    /// A number as the format writes it: integers without a fraction, `+Inf`, `-Inf`, `NaN`.
    static func format(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    static func escapeLabel(_ value: String) -> String {
        var result = ""
        for character in value {
            switch character {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            default: result.append(character)
            }
        }
        return result
    }

    static func escapeHelp(_ value: String) -> String {
        value.replacing("\\", with: "\\\\").replacing("\n", with: "\\n")
    }
}
