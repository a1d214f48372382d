import Foundation
import RiveSyncServer
import RiveSyncTestSupport
import Testing

/// The README's limits table is the settings table: same names, defaults and reload marks.
@Suite struct LimitsDocumentationTests {
    @Test func readmeListsEveryLimitWithItsDefault() throws {
        let readme = try String(contentsOfFile: DaemonProcess.packageRoot + "/README.md", encoding: .utf8)
        let defaults = Dictionary(uniqueKeysWithValues: Limits().wireLimits.map { ($0.name, $0.value) })
        for setting in Limits.settings {
            let value = try #require(defaults[setting.name], "welcome limits lack \(setting.name)")
            let row = "| `\(setting.name)` | \(value) | \(setting.summary) | \(setting.reloadable ? "yes" : "no") |"
            #expect(readme.contains(row), "README is missing: \(row)")
        }
    }
}
