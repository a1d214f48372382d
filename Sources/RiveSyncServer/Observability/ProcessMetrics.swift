import Foundation

/// The `process_*` metrics Prometheus' client libraries export, read from `/proc/self`: CPU
/// time, resident and virtual memory, open and maximum file descriptors, start time.
enum ProcessMetrics {
    /// Prometheus text for this process (metrics whose source cannot be read are left out).
    static func prometheusText() -> String {
        var text = ""
        func metric(_ name: String, _ type: String, _ help: String, _ value: Double?) {
            guard let value else { return }
            text += "# HELP process_\(name) \(help)\n# TYPE process_\(name) \(type)\n"
            text += "process_\(name) \(value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value))\n"
        }
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        let stat = statFields()
        let cpu = stat.flatMap { fields in fields.count > 14 ? (Double(fields[13]) ?? 0) + (Double(fields[14]) ?? 0) : nil }
        metric("cpu_seconds_total", "counter", "User and system CPU time spent, in seconds.", cpu.map { $0 / ticks })
        let pageSize = Double(sysconf(Int32(_SC_PAGESIZE)))
        let statm = procText("/proc/self/statm")?.split(separator: " ").compactMap { Double($0) }
        metric("virtual_memory_bytes", "gauge", "Virtual memory size, in bytes.", statm.flatMap { $0.first }.map { $0 * pageSize })
        metric(
            "resident_memory_bytes", "gauge", "Resident memory size, in bytes.",
            statm.flatMap { $0.count > 1 ? $0[1] : nil }.map { $0 * pageSize })
        // Best effort: a gauge without /proc is left out, never an error of the scrape.
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")).map { Double($0.count) }
        metric("open_fds", "gauge", "Open file descriptors.", fds)
        var limit = rlimit()
        metric(
            "max_fds", "gauge", "Limit of open file descriptors.",
            getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 ? Double(limit.rlim_cur) : nil)
        let start = stat.flatMap { fields in fields.count > 21 ? Double(fields[21]) : nil }
        metric(
            "start_time_seconds", "gauge", "Start time of the process since the Unix epoch, in seconds.",
            start.flatMap { ticksSinceBoot in bootTime().map { $0 + ticksSinceBoot / ticks } })
        return text
    }

    /// The fields of `/proc/self/stat` from the third on (after `pid (comm)`), numbered as in
    /// proc(5) minus one: index 13 is utime, 14 stime, 21 starttime.
    private static func statFields() -> [String]? {
        guard let text = procText("/proc/self/stat"), let close = text.lastIndex(of: ")") else {
            return nil
        }
        return ["pid", "comm"] + text[text.index(after: close)...].split(separator: " ").map(String.init)
    }

    /// `btime` of `/proc/stat`: when the machine booted, in seconds since the epoch.
    private static func bootTime() -> Double? {
        guard let text = procText("/proc/stat") else { return nil }
        return text.split(separator: "\n").first { $0.hasPrefix("btime ") }.flatMap { Double($0.dropFirst(6)) }
    }

    /// The whole text of a `/proc` file. `String(contentsOfFile:)` reads only the first 4 KiB of
    /// such a file (its size shows as 0), and `/proc/stat` of a machine with many cores or
    /// interrupts is longer, with `btime` after them.
    static func procText(_ path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }  // read-only: nothing to lose at close
        return (try? handle.readToEnd()).map { String(decoding: $0, as: UTF8.self) }
    }
}
