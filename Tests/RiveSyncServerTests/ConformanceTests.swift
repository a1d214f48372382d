import Foundation
import RiveSyncJSON
import RiveSyncTestSupport
import Testing

/// Every case in `protocol/conformance/` against a fresh `rivesyncd --demo`.
@Suite(.serialized) struct ConformanceTests {
    static let directory = DaemonProcess.packageRoot + "/protocol/conformance"

    static let cases: [String] = {
        // An unreadable directory gives no cases: `thereAreConformanceCases` then fails.
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted()
    }()

    @Test func thereAreConformanceCases() {
        #expect(Self.cases.count >= 10)
    }

    @Test(arguments: cases)
    func conformanceCase(file: String) async throws {
        let text = try String(contentsOfFile: Self.directory + "/" + file, encoding: .utf8)
        let json = try JSONParser().parse(text)
        let steps = try #require(json["steps"]?.arrayValue, "\(file): no steps")
        try await withDaemon(["--demo"]) { daemon in
            var runner = ConformanceRunner(daemon: daemon)
            do {
                try await runner.run(steps)
            } catch {
                Issue.record("\(file): \(error)\n--- rivesyncd stderr ---\n\(daemon.stderr)")
            }
        }
    }
}
