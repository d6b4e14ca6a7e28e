import Foundation

/// The process's resident memory and CPU time, for `/metrics` (what `seatkit rush` divides by the
/// waiting entries and the polls: docs/DEPLOY.md's sizing).
package enum ProcessMemory {
    /// Bytes resident now: `/proc/self/statm`'s second figure (pages) times the page size; 0 where there is no /proc.
    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// User and system CPU seconds used so far: `/proc/self/stat`'s utime and stime; 0 where there is no /proc.
    static func cpuSeconds() -> Double { cpuSeconds(process: "self") ?? 0 }

    /// User and system CPU seconds a process (`self` or a pid) has used: `/proc/PID/stat`'s utime and stime
    /// (fields 14 and 15, counted after the command name's closing parenthesis, which may hold spaces),
    /// with its reaped children's (cutime and cstime, 16 and 17) if asked; nil if it cannot be read.
    package static func cpuSeconds(process: String, withReapedChildren children: Bool = false) -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/\(process)/stat", encoding: .utf8), let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // After ")": state is field 3, so utime (14) and stime (15) are at 11 and 12 here.
        let last = children ? 14 : 12
        guard fields.count > last else { return nil }
        var ticks = 0.0
        for k in 11...last {
            guard let value = Double(fields[k]) else { return nil }
            ticks += value
        }
        return ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}
