extension String {
    /// The directory a path names a file in: `/var/log/bus.log` gives `/var/log`, `/bus.log`
    /// gives `/`, `logs/` gives `.`, and a bare name gives `.` (the current directory), so the
    /// result can always be opened.
    package var parentDirectory: String {
        var path = Substring(self)
        while path.count > 1, path.hasSuffix("/") { path = path.dropLast() }
        guard let slash = path.lastIndex(of: "/") else { return "." }
        guard slash != path.startIndex else { return "/" }
        var parent = path[..<slash]
        while parent.count > 1, parent.hasSuffix("/") { parent = parent.dropLast() }
        return String(parent)
    }

    /// The last component of a path: `/var/lib/bus/journal/` and `journal` give `journal`.
    package var lastPathComponent: Substring {
        let trimmed = hasSuffix("/") ? dropLast() : Substring(self)
        return trimmed.split(separator: "/").last ?? trimmed
    }
}
