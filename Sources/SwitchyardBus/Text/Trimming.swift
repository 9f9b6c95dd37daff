extension StringProtocol {
    /// The text without leading and trailing spaces and tabs (and other Unicode spaces), as
    /// Foundation's `trimmingCharacters(in: .whitespaces)`, which FoundationEssentials lacks.
    package func trimmingSpaces() -> String {
        trimmed { $0.isWhitespace && !$0.isNewline }
    }

    /// The text without leading and trailing whitespace, line breaks included.
    package func trimmingWhitespace() -> String {
        trimmed(\.isWhitespace)
    }

    private func trimmed(_ drop: (Character) -> Bool) -> String {
        guard let first = firstIndex(where: { !drop($0) }), let last = lastIndex(where: { !drop($0) }) else { return "" }
        return String(self[first...last])
    }
}
