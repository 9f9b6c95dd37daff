/// One place where two JSON values differ: its dotted path (`location.latitude`,
/// `places.value.0`; empty for the whole value) and the value on each side (`nil` where the
/// path is missing). Numbers compare by value, so `1` and `1.0` are the same.
public struct JSONDifference: Sendable, Hashable, CustomStringConvertible {
    /// The dotted path; array elements by index.
    public var path: String
    /// The value on the left, `nil` when the path is missing there.
    public var left: JSON?
    /// The value on the right, `nil` when the path is missing there.
    public var right: JSON?

    public init(path: String, left: JSON?, right: JSON?) {
        self.path = path
        self.left = left
        self.right = right
    }

    /// `location.latitude: 52.1 ≠ 52.2`, with `(missing)` for an absent side.
    public var description: String {
        func show(_ value: JSON?) -> String { value.map { Self.shortened($0.serialized()) } ?? "(missing)" }
        return "\(path.isEmpty ? "(the whole value)" : path): \(show(left)) ≠ \(show(right))"
    }

    /// The differences between `left` and `right`, depth first with object keys sorted, at
    /// most `limit` of them.
    public static func between(_ left: JSON, _ right: JSON, limit: Int = 20) -> [JSONDifference] {
        var found: [JSONDifference] = []
        collect(left, right, path: "", limit: limit, into: &found)
        return found
    }

    private static func collect(_ left: JSON?, _ right: JSON?, path: String, limit: Int, into found: inout [JSONDifference]) {
        guard found.count < limit else { return }
        switch (left, right) {
        case (.object(let a)?, .object(let b)?):
            for key in Set(a.keys).union(b.keys).sorted() {
                collect(a[key], b[key], path: join(path, key), limit: limit, into: &found)
            }
        case (.array(let a)?, .array(let b)?):
            for index in 0..<max(a.count, b.count) {
                collect(index < a.count ? a[index] : nil, index < b.count ? b[index] : nil,
                        path: join(path, String(index)), limit: limit, into: &found)
            }
        default:
            if let left, let right, left == right || (left.doubleValue != nil && left.doubleValue == right.doubleValue) { return }
            if left == nil, right == nil { return }
            found.append(JSONDifference(path: path, left: left, right: right))
        }
    }

    private static func join(_ path: String, _ component: String) -> String {
        path.isEmpty ? component : path + "." + component
    }

    private static func shortened(_ text: String) -> String {
        text.count <= 120 ? text : String(text.prefix(117)) + "…"
    }
}
