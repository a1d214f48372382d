import Foundation
import Testing

@testable import RiveSyncServer

@Suite struct ProcessMetricsTests {
    /// A /proc file longer than 4 KiB is read to its end: `/proc/self/maps` of a test process maps
    /// dozens of libraries, and its last lines (the stack and the vsyscall page) come after 4 KiB.
    @Test func aLongProcFileIsReadWhole() throws {
        let maps = try #require(ProcessMetrics.procText("/proc/self/maps"))
        #expect(maps.utf8.count > 4096)
        #expect(maps.contains("[stack]"))
        #expect(maps.hasSuffix("\n"))
    }

    @Test func startTimeIsAfterBootAndBeforeNow() throws {
        let text = ProcessMetrics.prometheusText()
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("process_start_time_seconds ") })
        let start = try #require(Double(line.dropFirst("process_start_time_seconds ".count)))
        #expect(start <= Date().timeIntervalSince1970)
        #expect(start > Date().timeIntervalSince1970 - 86_400 * 365)
    }
}
