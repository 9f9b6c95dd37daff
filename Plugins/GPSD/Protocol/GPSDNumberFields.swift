import SwitchyardBus

/// A gpsd report whose optional number fields are read, and written to its payload, under the
/// names gpsd gives them, listed once in ``numberFields`` so the two cannot disagree.
protocol GPSDNumberFields {
    /// Each optional number field with gpsd's name for it.
    static var numberFields: [(name: String, field: WritableKeyPath<Self, Double?>)] { get }
}

extension GPSDNumberFields {
    /// Reads every number field from a report's `members`; one of the wrong type counts as
    /// missing.
    mutating func decodeNumbers(_ members: [String: JSON]) {
        for (name, field) in Self.numberFields { self[keyPath: field] = members[name]?.doubleValue }
    }

    /// Writes every known number field into a payload's `members` under gpsd's name.
    func encodeNumbers(into members: inout [String: JSON]) {
        for (name, field) in Self.numberFields { members[name] = self[keyPath: field].map(JSON.number) }
    }
}
