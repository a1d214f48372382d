import Foundation
import RiveSyncServer
import RiveSyncTestSupport
import Testing

/// The limits table of docs/CONFIGURATION.md is the settings table: same names, defaults and reload marks.
@Suite struct LimitsDocumentationTests {
    @Test func configurationListsEveryLimitWithItsDefault() throws {
        let document = try String(contentsOfFile: DaemonProcess.packageRoot + "/docs/CONFIGURATION.md", encoding: .utf8)
        let defaults = Dictionary(uniqueKeysWithValues: Limits().wireLimits.map { ($0.name, $0.value) })
        for setting in Limits.settings {
            let value = try #require(defaults[setting.name], "welcome limits lack \(setting.name)")
            let row = "| `\(setting.name)` | \(value) | \(setting.summary) | \(setting.reloadable ? "yes" : "no") |"
            #expect(document.contains(row), "docs/CONFIGURATION.md is missing: \(row)")
        }
    }
}
