extension String {
    /// The path without its last component, as `NSString.deletingLastPathComponent` (which
    /// FoundationEssentials lacks): `/var/log/bus.log` gives `/var/log`, `/bus.log` gives `/`,
    /// and `bus.log` gives the empty string.
    package var deletingLastPathComponent: String {
        var path = Substring(self)
        while path.count > 1, path.hasSuffix("/") { path = path.dropLast() }
        guard let slash = path.lastIndex(of: "/") else { return "" }
        guard slash != path.startIndex else { return "/" }
        var parent = path[..<slash]
        while parent.count > 1, parent.hasSuffix("/") { parent = parent.dropLast() }
        return String(parent)
    }
}
