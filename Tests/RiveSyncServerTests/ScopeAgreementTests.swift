import Foundation
import RiveSyncCore
import RiveSyncJSON
import RiveSyncTestSupport
import Testing

@testable import RiveSyncServer

/// The scopes a `forbidden` error can name are the same in PROTOCOL.md §13, the error
/// details' schema and the daemon's permissions (all but `metrics`, which is HTTP's 403).
@Suite struct ScopeAgreementTests {
    @Test func forbiddenScopesAgreeInTheDocumentTheSchemaAndTheCode() throws {
        let document = try String(contentsOfFile: DaemonProcess.packageRoot + "/protocol/PROTOCOL.md", encoding: .utf8)
        let row = try #require(document.split(separator: "\n").first { $0.hasPrefix("| `forbidden` |") })
        let listed = try #require(row.range(of: "`scope` = ")).upperBound
        let clause = row[listed...].prefix { $0 != ";" }
        let documented = Set(clause.matches(of: try Regex("`[A-Za-z]+`")).map { String(clause[$0.range].dropFirst().dropLast()) })
        let common = try JSONParser().parse(
            try String(contentsOfFile: DaemonProcess.packageRoot + "/protocol/schemas/common.schema.json", encoding: .utf8))
        let items = try #require(common["$defs"]?["errorDetails"]?["properties"]?["scope"]?["enum"]?.arrayValue)
        let schema = Set(items.compactMap(\.stringValue))
        let coded = Set(Permission.allCases.filter { $0 != .metrics }.map(\.rawValue))
        #expect(documented == coded, "PROTOCOL.md §13 \(documented.sorted()) vs the code \(coded.sorted())")
        #expect(schema == coded, "common.schema.json \(schema.sorted()) vs the code \(coded.sorted())")
    }
}
