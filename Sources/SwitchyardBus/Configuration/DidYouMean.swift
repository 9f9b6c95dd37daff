/// Suggests the intended word for a misspelt key, kind, command or option.
package enum DidYouMean {
    /// The candidate closest to `input`, ignoring case, when it is within
    /// `max(1, input.count / 3)` edits; `nil` when none is that close. Ties go to the candidate
    /// that sorts first, so the suggestion does not depend on the order candidates come in.
    package static func suggestion(for input: String, among candidates: some Sequence<String>) -> String? {
        let typed = Array(input.lowercased())
        let limit = max(1, typed.count / 3)
        var best: (candidate: String, distance: Int)?
        for candidate in candidates where candidate != input {
            let distance = editDistance(typed, Array(candidate.lowercased()), limit: limit)
            guard distance <= limit else { continue }
            if let current = best, current.distance < distance || (current.distance == distance && current.candidate < candidate) {
                continue
            }
            best = (candidate, distance)
        }
        return best?.candidate
    }

    /// The Levenshtein distance between two strings (insertions, deletions, substitutions).
    package static func editDistance(_ first: String, _ second: String) -> Int {
        editDistance(Array(first), Array(second), limit: .max)
    }

    /// The distance, or a value above `limit` as soon as it is certain to exceed it. Two
    /// adjacent letters swapped count as one edit (optimal string alignment): `paht` is one
    /// typo away from `path`, not two.
    private static func editDistance(_ first: [Character], _ second: [Character], limit: Int) -> Int {
        if abs(first.count - second.count) > limit { return limit &+ 1 }
        var beforePrevious = [Int](repeating: 0, count: second.count + 1)
        var previous = Array(0...second.count)
        var current = [Int](repeating: 0, count: second.count + 1)
        for (row, character) in first.enumerated() {
            current[0] = row + 1
            var rowMinimum = current[0]
            for (offset, other) in second.enumerated() {
                let column = offset + 1
                let substitution = previous[offset] + (character == other ? 0 : 1)
                current[column] = min(substitution, previous[column] + 1, current[offset] + 1)
                if row > 0, offset > 0, character == second[offset - 1], first[row - 1] == other {
                    current[column] = min(current[column], beforePrevious[offset - 1] + 1)
                }
                rowMinimum = min(rowMinimum, current[column])
            }
            if rowMinimum > limit { return limit &+ 1 }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[second.count]
    }
}
