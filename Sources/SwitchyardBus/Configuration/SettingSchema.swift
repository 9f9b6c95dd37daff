extension SettingDescription {
    /// The JSON Schema (draft 2020-12) of the setting's value, with its summary as the
    /// description and its default when the default is a JSON value.
    ///
    /// It is ``schema`` when the plugin gave one; otherwise it is read from ``type``, which
    /// plugins write in a small vocabulary: `boolean`; `integer`, `integer A-B`, `integer ≥ N`,
    /// `bytes`; seconds or metres with `> 0` / `>= 0` or a range `0.001-60`; `"a" | "b"` (or bare `GET | POST`) for
    /// a choice of strings, `2 | 3` for a choice of numbers; `array of strings`; `X or array`;
    /// `object`, `{…}` for objects; `any JSON` or `JSON template` for anything; every other
    /// text is a string. Where a number, boolean or choice is expected, a `${VAR}` reference is
    /// accepted too (the bus expands it before it checks the value).
    public var valueSchema: JSON {
        var members = (schema ?? Self.inferredSchema(type)).objectValue ?? [:]
        members["description"] = .string(summary)
        if let defaultValue, let value = try? JSON(parsing: defaultValue), value != .null {
            members["default"] = value
        }
        return .object(members)
    }

    /// The schema the `type` text describes; see ``valueSchema``.
    static func inferredSchema(_ type: String) -> JSON {
        let text = type.lowercased()
        let choices = type.split(separator: "|").map { $0.trimmingSpaces() }
        if choices.count > 1, !type.contains("{") {
            if choices.allSatisfy({ Int64($0) != nil }) {
                return orEnvironment(["enum": .array(choices.compactMap { Int64($0) }.map(JSON.integer))])
            }
            let quoted = choices.filter { $0.hasPrefix("\"") && $0.hasSuffix("\"") && $0.count >= 2 }
            let words = quoted.map { String($0.dropFirst().dropLast()) }
            if quoted.count == choices.count || choices.allSatisfy({ !$0.contains(" ") }) {
                let values = quoted.count == choices.count ? words : choices
                return orEnvironment(["enum": .array(values.map(JSON.string))])
            }
            // Some named choices and free text ("stdout" | "stderr" | file path): any string.
            return .object(["type": "string"])
        }
        if text.hasPrefix("boolean") { return orEnvironment(["type": "boolean"]) }
        if text.hasPrefix("integer") || text == "bytes" {
            var schema: [String: JSON] = ["type": "integer"]
            if text == "bytes" { schema["minimum"] = 1 }
            let bounds = text.dropFirst("integer".count).trimmingSpaces()
            let range = bounds.split(separator: "-").compactMap { Int64($0.trimmingSpaces()) }
            if range.count == 2 {
                schema["minimum"] = .integer(range[0])
                schema["maximum"] = .integer(range[1])
            } else if let minimum = Self.bound(after: ["≥", ">="], in: bounds) {
                schema["minimum"] = .integer(Int64(minimum))
            }
            return orEnvironment(schema)
        }
        if text.contains("seconds") || text.contains("metres") || text == "number" {
            var schema: [String: JSON] = ["type": "number"]
            if let (minimum, maximum) = Self.bounds(in: text) {
                schema["minimum"] = Self.number(minimum)
                schema["maximum"] = Self.number(maximum)
            } else if let minimum = Self.bound(after: ["≥", ">="], in: text) {
                schema["minimum"] = Self.number(minimum)
            } else if let minimum = Self.bound(after: [">"], in: text) {
                schema["exclusiveMinimum"] = Self.number(minimum)
            } else {
                schema["exclusiveMinimum"] = 0
            }
            return orEnvironment(schema)
        }
        if text.hasPrefix("array of strings") {
            return .object(["type": "array", "items": ["type": "string"]])
        }
        if text.hasSuffix(" or array") || text.hasSuffix(" or array of them") {
            return .object(["anyOf": [["type": "string"], ["type": "array", "items": ["type": "string"], "minItems": 1]]])
        }
        if text.hasPrefix("object") || text.hasPrefix("{") {
            return .object(["type": "object"])
        }
        if text.hasPrefix("any json") || text.contains("json template") {
            return .object([:])
        }
        return .object(["type": "string"])
    }

    /// The number after the first of `markers` in `text` (`"seconds >= 0"` → 0).
    private static func bound(after markers: [String], in text: String) -> Double? {
        for marker in markers {
            guard let range = text.firstRange(of: marker) else { continue }
            let rest = text[range.upperBound...].trimmingSpaces()
            if let number = Double(rest.prefix { $0.isNumber || $0 == "." }) { return number }
        }
        return nil
    }

    /// The bounds of the last word of `text` when it is a range `A-B` (`"seconds 0.001-60"` →
    /// 0.001 and 60), as the validation messages write one.
    private static func bounds(in text: String) -> (Double, Double)? {
        guard let word = text.split(separator: " ").last else { return nil }
        let parts = word.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let lower = Double(parts[0]), let upper = Double(parts[1]) else { return nil }
        return (lower, upper)
    }

    /// `value` as an integer when it is whole, so schemas read `0`, not `0.0`.
    private static func number(_ value: Double) -> JSON {
        Int64(exactly: value).map(JSON.integer) ?? .number(value)
    }

    /// `schema`, or a `${VAR}` reference that will be expanded to such a value.
    static func orEnvironment(_ schema: [String: JSON]) -> JSON {
        ["anyOf": [.object(schema), ["$ref": "#/$defs/environment"]]]
    }
}
