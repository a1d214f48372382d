import Foundation
import Testing

/// The cluster core is pure: no Foundation, Dispatch, Glibc, hiredis or Redis import, so it
/// cannot read a clock or touch a socket (issue 26 item 2).
@Suite struct ClusterCorePurityTests {
    static let forbidden = [
        "Foundation", "FoundationEssentials", "Dispatch", "Glibc", "Musl", "Darwin", "Synchronization", "CHiredis", "RiveSyncRedis",
        "RiveSyncCluster",
    ]

    @Test func theClusterCoreImportsNothingWithIO() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let core = root.appendingPathComponent("Sources/RiveSyncClusterCore").path
        let files = try FileManager.default.contentsOfDirectory(atPath: core).filter { $0.hasSuffix(".swift") }
        #expect(files.count >= 5, "the cluster core's sources are where this test looks: \(core)")
        for file in files {
            let text = try String(contentsOfFile: core + "/" + file, encoding: .utf8)
            for line in text.split(separator: "\n") where line.hasPrefix("import ") {
                let module = String(line.dropFirst("import ".count))
                #expect(!Self.forbidden.contains(module), "\(file): \(line)")
            }
        }
    }
}
