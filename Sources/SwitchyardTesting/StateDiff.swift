/// A readable line diff of two values, for test failures: each value is dumped
/// (`Swift.dump`), and the lines are compared by longest common subsequence.
enum StateDiff {
    /// The lines that differ, `- ` for `expected`, `+ ` for `actual`, with equal lines between
    /// them shown unmarked for context (runs of more than two equal lines elided).
    static func describe<Value>(expected: Value, actual: Value) -> String {
        let old = lines(expected)
        let new = lines(actual)
        var table = Array(repeating: Array(repeating: 0, count: new.count + 1), count: old.count + 1)
        for i in stride(from: old.count - 1, through: 0, by: -1) {
            for j in stride(from: new.count - 1, through: 0, by: -1) {
                table[i][j] = old[i] == new[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
            }
        }
        var output: [String] = []
        var equalRun: [String] = []
        func flushEqual() {
            if equalRun.count > 2 {
                output.append("  " + equalRun[0])
                output.append("  …")
                output.append("  " + equalRun[equalRun.count - 1])
            } else {
                output += equalRun.map { "  " + $0 }
            }
            equalRun = []
        }
        var i = 0
        var j = 0
        while i < old.count || j < new.count {
            if i < old.count, j < new.count, old[i] == new[j] {
                equalRun.append(old[i])
                i += 1
                j += 1
            } else if j < new.count, i == old.count || table[i][j + 1] >= table[i + 1][j] {
                flushEqual()
                output.append("+ " + new[j])
                j += 1
            } else {
                flushEqual()
                output.append("- " + old[i])
                i += 1
            }
        }
        flushEqual()
        return output.joined(separator: "\n")
    }

    private static func lines<Value>(_ value: Value) -> [String] {
        var text = ""
        dump(value, to: &text)
        return text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
    }
}
