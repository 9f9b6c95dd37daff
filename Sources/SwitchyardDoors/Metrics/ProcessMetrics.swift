import FoundationEssentials
import Glibc

/// What `/metrics` tells of the process itself, read from `/proc/self`.
struct ProcessMetrics: Sendable, Hashable {
    /// Resident memory in bytes.
    var residentBytes: Int
    /// Open file descriptors.
    var openDescriptors: Int
    /// The descriptor limit (`RLIMIT_NOFILE`, soft).
    var maximumDescriptors: Int

    /// The process's figures now; a figure that cannot be read is 0.
    static func current() -> ProcessMetrics {
        var resident = 0
        if let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) {
            let fields = statm.split(separator: " ")
            if fields.count > 1, let pages = Int(fields[1]) { resident = pages * Int(sysconf(Int32(_SC_PAGESIZE))) }
        }
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0
        var limit = rlimit()
        let maximum = getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 ? Int(clamping: limit.rlim_cur) : 0
        // The directory listing holds a descriptor of its own while it reads.
        return ProcessMetrics(residentBytes: resident, openDescriptors: max(0, descriptors - 1), maximumDescriptors: maximum)
    }
}
